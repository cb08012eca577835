package cert

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// A Method says how ParseDetailed read a certificate.
type Method int

const (
	// Stdlib: x509.ParseCertificate read the certificate as it is.
	Stdlib Method = iota
	// Repaired: x509.ParseCertificate read a repaired copy, and the fields
	// the repair touched were then set from the original.
	Repaired
	// Lenient: this package read the TBSCertificate itself.
	Lenient
)

func (m Method) String() string {
	switch m {
	case Stdlib:
		return "crypto/x509"
	case Repaired:
		return "repaired"
	case Lenient:
		return "lenient"
	}
	return "unknown method"
}

// A Report says how a certificate was read and what was tolerated.
type Report struct {
	Method Method

	// StdlibErr is why x509.ParseCertificate refused the original, nil
	// for Method Stdlib.
	StdlibErr error

	// Deviations describe, one per entry, what this package tolerated or
	// could not read: "negative serial number", "extension 2.5.29.17: ...".
	Deviations []string
}

func (r *Report) addf(format string, args ...any) {
	r.Deviations = append(r.Deviations, fmt.Sprintf(format, args...))
}

// Parse reads one DER certificate, tolerating the deviations listed in the
// package documentation. See ParseDetailed.
func Parse(der []byte) (*x509.Certificate, error) {
	c, _, err := ParseDetailed(der)
	return c, err
}

// ParseDetailed reads one DER certificate and reports how.
//
// The certificate is the one x509.ParseCertificate returns when that
// succeeds (with a PublicKey filled in by ParsePublicKey when crypto/x509
// leaves it nil, as for id-RSASSA-PSS keys).
//
// Otherwise the repaired copy gives a certificate as complete as
// crypto/x509 makes it, except that SerialNumber, PublicKey,
// PublicKeyAlgorithm, Extensions and the Raw fields are the original's, the
// policies are listed once each, and when an extension had to be left out
// of the copy the fields it sets are filled by this package (for the
// extensions listed below) or left empty (the others; a critical one then
// goes to UnhandledCriticalExtensions).
//
// Otherwise the lenient reader fills Raw, RawTBSCertificate,
// RawSubjectPublicKeyInfo, RawSubject, RawIssuer, Signature,
// SignatureAlgorithm, PublicKeyAlgorithm, PublicKey (nil when unreadable),
// Version, SerialNumber, Issuer, Subject (see ParseName), NotBefore,
// NotAfter, Extensions, UnhandledCriticalExtensions and the fields of
// these extensions: key usage, basic constraints, subject and authority key
// identifiers, authority information access (OCSPServer,
// IssuingCertificateURL), CRL distribution points (URIs only), certificate
// policies (Policies, PolicyIdentifiers), extended key usage and subject
// alternative name (DNS names, e-mail addresses, URIs, IP addresses, not
// validated). It leaves empty everything else, name constraints and policy
// constraints included; such extensions, when critical, are listed in
// UnhandledCriticalExtensions. An extension it cannot read is recorded in
// the Report and skipped.
//
// Errors wrap ErrMalformed when not even the lenient reader can split the
// certificate into its fields, or ErrLimitExceeded.
func ParseDetailed(der []byte) (*x509.Certificate, *Report, error) {
	rep := &Report{}
	if len(der) > MaxCertificateSize {
		return nil, rep, fmt.Errorf("%w: certificate of %d bytes (max %d)", ErrLimitExceeded, len(der), MaxCertificateSize)
	}
	c, err := x509.ParseCertificate(der)
	if err == nil {
		if c.SerialNumber.Sign() < 0 {
			rep.addf("negative serial number")
		}
		if c.PublicKey == nil {
			if pub, alg, err := ParsePublicKey(c.RawSubjectPublicKeyInfo); err == nil {
				c.PublicKey, c.PublicKeyAlgorithm = pub, alg
				rep.addf("public key read by cert.ParsePublicKey (%v)", alg)
			}
		}
		return c, rep, nil
	}
	rep.StdlibErr = err
	rc, perr := parseRawCertificate(der)
	if perr != nil {
		return nil, rep, fmt.Errorf("certificate: %w (crypto/x509: %v)", perr, err)
	}
	if c := repair(rc, rep); c != nil {
		rep.Method = Repaired
		return c, rep, nil
	}
	rep.Method = Lenient
	rep.Deviations = nil // repair's notes; the lenient reader notes its own
	return lenient(rc, rep), rep, nil
}

// ParseAll reads concatenated DER certificates, as in a certs-only file or
// the content of a CertificateSet, or the CERTIFICATE blocks of PEM input
// (input that does not start with a DER SEQUENCE and holds "-----BEGIN";
// text around the blocks and other block types are skipped). It stops at
// the first certificate that does not parse and returns those read before
// it with the error.
func ParseAll(data []byte) ([]*x509.Certificate, error) {
	if len(data) > 0 && data[0] != 0x30 && bytes.Contains(data, []byte("-----BEGIN")) {
		return parsePEM(data)
	}
	var out []*x509.Certificate
	in := cryptobyte.String(data)
	for !in.Empty() {
		if len(out) == MaxBundleCertificates {
			return out, fmt.Errorf("%w: more than %d certificates", ErrLimitExceeded, MaxBundleCertificates)
		}
		var elem cryptobyte.String
		if !in.ReadASN1Element(&elem, cbasn1.SEQUENCE) {
			return out, fmt.Errorf("%w: certificate %d: not a DER SEQUENCE", ErrMalformed, len(out))
		}
		c, err := Parse(elem)
		if err != nil {
			return out, fmt.Errorf("certificate %d: %w", len(out), err)
		}
		out = append(out, c)
	}
	return out, nil
}

func parsePEM(data []byte) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for blocks := 0; ; blocks++ {
		if blocks == MaxBundleCertificates {
			return out, fmt.Errorf("%w: more than %d PEM blocks", ErrLimitExceeded, MaxBundleCertificates)
		}
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := Parse(block.Bytes)
		if err != nil {
			return out, fmt.Errorf("PEM certificate %d: %w", len(out), err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no CERTIFICATE block in PEM input", ErrMalformed)
	}
	return out, nil
}

// placeholderSPKI replaces a key crypto/x509 cannot read in the repaired
// copy: its algorithm, under the example arc 2.999, is unknown to
// crypto/x509, which then leaves PublicKey nil instead of failing.
var placeholderSPKI = []byte{
	0x30, 0x0a, // SubjectPublicKeyInfo
	0x30, 0x05, 0x06, 0x03, 0x88, 0x37, 0x01, // AlgorithmIdentifier { 2.999.1 }
	0x03, 0x01, 0x00, // subjectPublicKey, no bits
}

// placeholderSerial replaces a negative serial number in the repaired copy.
var placeholderSerial = []byte{0x02, 0x01, 0x01}

// repair builds a copy of rc without the deviations crypto/x509 refuses,
// parses it and restores the original values, or returns nil.
func repair(rc *rawCertificate, rep *Report) *x509.Certificate {
	t := &rc.tbs
	serial := t.serialElem
	switch {
	case t.serial.Sign() < 0:
		serial = placeholderSerial
		rep.addf("negative serial number")
	case !t.serialDER:
		serial = integerDER(t.serial)
		rep.addf("serial number not minimally encoded")
	}

	spki := t.spki
	pub, pubAlg, pubErr := ParsePublicKey(t.spki)
	if _, err := x509.ParsePKIXPublicKey(t.spki); err != nil {
		spki = placeholderSPKI
		if pubErr == nil {
			rep.addf("public key crypto/x509 cannot read (%v), read as %s", err, keyName(pub))
		} else {
			rep.addf("public key unreadable: %v", pubErr)
		}
	}

	exts := make([][]byte, len(t.extensions))
	for i, e := range t.extensions {
		exts[i] = e.raw
		if e.oid.Equal(oidExtPolicies) {
			if fixed, dup := dedupPolicies(e); dup {
				exts[i] = fixed
				rep.addf("duplicate certificate policy OIDs")
			}
		}
	}

	try := func(skip int) *x509.Certificate {
		der, err := assemble(rc, serial, spki, exts, skip)
		if err != nil {
			return nil
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return nil
		}
		return c
	}
	c := try(-1)
	skipped := -1
	if c == nil {
		// One extension crypto/x509 cannot read (a SAN with a malformed
		// address, a duplicate, an odd encoding) makes it refuse the whole
		// certificate. Leave each out in turn; MaxExtensions bounds this.
		for i := range t.extensions {
			if c = try(i); c != nil {
				skipped = i
				break
			}
		}
		if c == nil {
			return nil
		}
	}

	c.Raw = rc.raw
	c.RawTBSCertificate = t.raw
	c.RawSubjectPublicKeyInfo = t.spki
	c.RawIssuer, c.RawSubject = t.issuer, t.subject
	c.Signature = rc.signature
	c.SerialNumber = t.serial
	c.PublicKey, c.PublicKeyAlgorithm = pub, pubAlg
	if pubErr != nil {
		c.PublicKey, c.PublicKeyAlgorithm = nil, x509.UnknownPublicKeyAlgorithm
	}
	c.Extensions = pkixExtensions(t.extensions)
	if skipped >= 0 {
		e := t.extensions[skipped]
		rep.addf("extension %v left out for crypto/x509", e.oid)
		applyNoted(c, e, rep)
	}
	return c
}

// assemble encodes a certificate from rc with the given serial and SPKI
// elements and extensions (leaving out extension skip, if not -1).
func assemble(rc *rawCertificate, serial, spki []byte, exts [][]byte, skip int) ([]byte, error) {
	t := &rc.tbs
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddBytes(t.version)
			b.AddBytes(serial)
			b.AddBytes(t.sigAlg)
			b.AddBytes(t.issuer)
			b.AddBytes(t.validity)
			b.AddBytes(t.subject)
			b.AddBytes(spki)
			for _, uid := range t.uniqueIDs {
				b.AddBytes(uid)
			}
			if len(exts) == 0 || (len(exts) == 1 && skip == 0) {
				return
			}
			b.AddASN1(cbasn1.Tag(3).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					for i, e := range exts {
						if i != skip {
							b.AddBytes(e)
						}
					}
				})
			})
		})
		b.AddBytes(rc.sigAlg)
		b.AddBytes(rc.sigValue)
	})
	return b.Bytes()
}

// dedupPolicies re-encodes a certificate-policies extension with each
// policy once, and reports whether there were duplicates.
func dedupPolicies(e extension) ([]byte, bool) {
	oids, infos, err := readPolicyOIDs(cryptobyte.String(e.value))
	if err != nil {
		return nil, false
	}
	var n int
	in := cryptobyte.String(e.value)
	var seq cryptobyte.String
	in.ReadASN1(&seq, cbasn1.SEQUENCE)
	for ; !seq.Empty(); n++ {
		var skip cryptobyte.String
		seq.ReadASN1Element(&skip, cbasn1.SEQUENCE)
	}
	if n == len(oids) {
		return nil, false
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1ObjectIdentifier(e.oid)
		if e.critical {
			b.AddASN1Boolean(true)
		}
		b.AddASN1(cbasn1.OCTET_STRING, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				for _, info := range infos {
					b.AddBytes(info)
				}
			})
		})
	})
	out, err := b.Bytes()
	if err != nil {
		return nil, false
	}
	return out, true
}

// integerDER encodes n as a DER INTEGER.
func integerDER(n *big.Int) []byte {
	var b cryptobyte.Builder
	b.AddASN1BigInt(n)
	return b.BytesOrPanic() // cannot fail: n is at most MaxCertificateSize bytes
}

// keyName names a key for a deviation note.
func keyName(pub crypto.PublicKey) string {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		return "ECDSA " + k.Curve.Params().Name
	case *rsa.PublicKey:
		return fmt.Sprintf("RSA-%d", k.N.BitLen())
	}
	return fmt.Sprintf("%T", pub)
}

// pkixExtensions converts extensions for x509.Certificate.Extensions.
func pkixExtensions(exts []extension) []pkix.Extension {
	out := make([]pkix.Extension, len(exts))
	for i, e := range exts {
		out[i] = pkix.Extension{Id: e.oid, Critical: e.critical, Value: e.value}
	}
	return out
}
