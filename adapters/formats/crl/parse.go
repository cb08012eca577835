package crl

import (
	"bytes"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/internal/der"
)

var (
	oidCRLNumber         = asn1.ObjectIdentifier{2, 5, 29, 20}
	oidReasonCode        = asn1.ObjectIdentifier{2, 5, 29, 21}
	oidInvalidityDate    = asn1.ObjectIdentifier{2, 5, 29, 24}
	oidDeltaCRLIndicator = asn1.ObjectIdentifier{2, 5, 29, 27}
	oidIssuingDistPoint  = asn1.ObjectIdentifier{2, 5, 29, 28}
	oidCertificateIssuer = asn1.ObjectIdentifier{2, 5, 29, 29}
	oidAuthorityKeyID    = asn1.ObjectIdentifier{2, 5, 29, 35}
)

var tagExplicit0 = cbasn1.Tag(0).ContextSpecific().Constructed()

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

func limit(format string, args ...any) error {
	return fmt.Errorf("%w: %w: %s", ErrMalformed, ErrLimit, fmt.Sprintf(format, args...))
}

// Parse parses a CRL, DER or PEM ("X509 CRL"). The result is unverified.
func Parse(data []byte) (*CRL, error) {
	if len(data) > MaxBytes {
		return nil, limit("%d bytes, limit %d", len(data), MaxBytes)
	}
	// DER starts with a SEQUENCE tag; PEM files may start with
	// explanatory text, which pem.Decode skips.
	if len(data) > 0 && data[0] != 0x30 && bytes.Contains(data, []byte("-----BEGIN")) {
		rest := data
		for {
			var block *pem.Block
			if block, rest = pem.Decode(rest); block == nil {
				return nil, malformed("PEM without an X509 CRL block")
			}
			if block.Type == "X509 CRL" {
				data = block.Bytes
				break
			}
		}
	}

	c := &CRL{Raw: data}
	in := cryptobyte.String(data)
	var seq, tbs cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() {
		return nil, malformed("not a DER SEQUENCE")
	}
	if !seq.ReadASN1Element(&tbs, cbasn1.SEQUENCE) {
		return nil, malformed("tbsCertList")
	}
	c.RawTBSCertList = tbs
	_, outerAlg, ok := der.ReadAlgorithmIdentifier(&seq)
	if !ok {
		return nil, malformed("signatureAlgorithm")
	}
	c.RawSignatureAlgorithm = outerAlg
	var sig asn1.BitString
	if !seq.ReadASN1BitString(&sig) || sig.BitLength%8 != 0 || !seq.Empty() {
		return nil, malformed("signatureValue")
	}
	c.Signature = sig.Bytes
	if alg, err := cert.ParseSignatureAlgorithm(outerAlg, 0); err == nil {
		c.SignatureAlgorithm = alg.X509()
	}

	innerAlg, err := c.parseTBS(tbs)
	if err != nil {
		return nil, err
	}
	// RFC 5280, section 5.1.1.2: the two must be the same; otherwise
	// the signed algorithm is not the one verified.
	if !sameAlgorithm(innerAlg, outerAlg) {
		return nil, malformed("signature algorithm of tbsCertList differs from signatureAlgorithm")
	}
	c.index()
	return c, nil
}

// sameAlgorithm compares two AlgorithmIdentifiers, taking NULL parameters
// and absent ones as equal: encoders disagree on them for RSA.
func sameAlgorithm(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	x, okx := der.ParseAlgorithmIdentifier(a)
	y, oky := der.ParseAlgorithmIdentifier(b)
	if !okx || !oky || !x.Algorithm.Equal(y.Algorithm) {
		return false
	}
	isNull := func(p asn1.RawValue) bool {
		return len(p.FullBytes) == 0 || bytes.Equal(p.FullBytes, []byte{0x05, 0x00})
	}
	return isNull(x.Parameters) && isNull(y.Parameters)
}

// parseTBS parses TBSCertList into c and returns its signature
// AlgorithmIdentifier.
func (c *CRL) parseTBS(data []byte) ([]byte, error) {
	in := cryptobyte.String(data)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return nil, malformed("tbsCertList")
	}
	// version is OPTIONAL and present only in v2 CRLs (value 1). Some v1
	// CRLs carry an explicit 0; both are read as v1.
	c.Version = 1
	if seq.PeekASN1Tag(cbasn1.INTEGER) {
		var v int
		if !seq.ReadASN1Integer(&v) || v < 0 || v > 1 {
			return nil, malformed("version")
		}
		c.Version = v + 1
	}
	_, alg, ok := der.ReadAlgorithmIdentifier(&seq)
	if !ok {
		return nil, malformed("signature")
	}
	var issuer cryptobyte.String
	if !seq.ReadASN1Element(&issuer, cbasn1.SEQUENCE) {
		return nil, malformed("issuer")
	}
	c.RawIssuer = issuer
	// The parsed name is for messages only; a name encoding/asn1 cannot
	// read does not make the CRL unusable.
	if rest, err := asn1.Unmarshal(issuer, &c.Issuer); err != nil || len(rest) > 0 {
		c.Issuer = nil
	}
	if !der.ReadTime(&seq, &c.ThisUpdate) {
		return nil, malformed("thisUpdate")
	}
	if seq.PeekASN1Tag(cbasn1.UTCTime) || seq.PeekASN1Tag(cbasn1.GeneralizedTime) {
		if !der.ReadTime(&seq, &c.NextUpdate) {
			return nil, malformed("nextUpdate")
		}
	}
	if seq.PeekASN1Tag(cbasn1.SEQUENCE) {
		var revoked cryptobyte.String
		if !seq.ReadASN1(&revoked, cbasn1.SEQUENCE) {
			return nil, malformed("revokedCertificates")
		}
		if err := c.parseEntries(revoked); err != nil {
			return nil, err
		}
	}
	var extField cryptobyte.String
	var present bool
	if !seq.ReadOptionalASN1(&extField, &present, tagExplicit0) || !seq.Empty() {
		return nil, malformed("crlExtensions")
	}
	if present {
		exts, ok := der.ReadExtensions(&extField)
		if !ok || !extField.Empty() {
			return nil, malformed("crlExtensions")
		}
		if err := c.readExtensions(exts); err != nil {
			return nil, err
		}
	}
	return alg, nil
}

// readExtensions interprets the crlExtensions.
func (c *CRL) readExtensions(exts []pkix.Extension) error {
	c.Extensions = exts
	for _, e := range exts {
		v := cryptobyte.String(e.Value)
		switch {
		case e.Id.Equal(oidCRLNumber):
			n, ok := der.ReadInteger(&v)
			if !ok || !v.Empty() {
				return malformed("CRL number")
			}
			c.Number = n
		case e.Id.Equal(oidDeltaCRLIndicator):
			n, ok := der.ReadInteger(&v)
			if !ok || !v.Empty() {
				return malformed("delta CRL indicator")
			}
			c.DeltaCRLIndicator = n
		case e.Id.Equal(oidIssuingDistPoint):
			var idp cryptobyte.String
			if !v.ReadASN1Element(&idp, cbasn1.SEQUENCE) || !v.Empty() {
				return malformed("issuing distribution point")
			}
			c.IssuingDistributionPoint = e.Value
		case e.Id.Equal(oidAuthorityKeyID):
			// keyIdentifier [0] IMPLICIT OCTET STRING; the issuer
			// name and serial alternative is not used for CRLs.
			var aki, keyID cryptobyte.String
			var present bool
			if !v.ReadASN1(&aki, cbasn1.SEQUENCE) || !v.Empty() ||
				!aki.ReadOptionalASN1(&keyID, &present, cbasn1.Tag(0).ContextSpecific()) {
				return malformed("authority key identifier")
			}
			if present {
				c.AuthorityKeyID = keyID
			}
		case e.Critical:
			c.UnhandledCriticalExtensions = append(c.UnhandledCriticalExtensions, e.Id)
		}
	}
	return nil
}

// parseEntries reads the revokedCertificates content.
func (c *CRL) parseEntries(s cryptobyte.String) error {
	// Counting first is cheap (headers only) and refuses an oversized
	// list before any entry is decoded; it also sizes Entries exactly.
	n := 0
	for count := s; !count.Empty(); n++ {
		if n == MaxEntries {
			return limit("more than %d entries", MaxEntries)
		}
		if !count.SkipASN1(cbasn1.SEQUENCE) {
			return malformed("revokedCertificates[%d]", n)
		}
	}
	c.Entries = make([]Entry, 0, n)
	for !s.Empty() {
		var seq cryptobyte.String
		var e Entry
		var ok bool
		if !s.ReadASN1(&seq, cbasn1.SEQUENCE) {
			return malformed("revokedCertificates[%d]", len(c.Entries))
		}
		if e.Serial, ok = der.ReadInteger(&seq); !ok {
			return malformed("revokedCertificates[%d] userCertificate", len(c.Entries))
		}
		if !der.ReadTime(&seq, &e.RevocationTime) {
			return malformed("revokedCertificates[%d] revocationDate", len(c.Entries))
		}
		if !seq.Empty() {
			exts, ok := der.ReadExtensions(&seq)
			if !ok || !seq.Empty() {
				return malformed("revokedCertificates[%d] crlEntryExtensions", len(c.Entries))
			}
			if err := c.readEntryExtensions(&e, exts); err != nil {
				return fmt.Errorf("revokedCertificates[%d]: %w", len(c.Entries), err)
			}
		}
		c.Entries = append(c.Entries, e)
	}
	return nil
}

// readEntryExtensions interprets crlEntryExtensions into e.
func (c *CRL) readEntryExtensions(e *Entry, exts []pkix.Extension) error {
	e.Extensions = exts
	for _, x := range exts {
		v := cryptobyte.String(x.Value)
		switch {
		case x.Id.Equal(oidReasonCode):
			if !der.ReadEnumerated(&v, &e.Reason) || !v.Empty() {
				return malformed("reason code")
			}
			e.HasReason = true
		case x.Id.Equal(oidInvalidityDate):
			if !der.ReadTime(&v, &e.InvalidityDate) || !v.Empty() { // GeneralizedTime; UTCTime tolerated
				return malformed("invalidity date")
			}
		case x.Id.Equal(oidCertificateIssuer):
			var names cryptobyte.String
			if !v.ReadASN1Element(&names, cbasn1.SEQUENCE) || !v.Empty() {
				return malformed("certificate issuer")
			}
			e.CertificateIssuer = x.Value
		case x.Critical:
			if !containsOID(c.UnhandledCriticalExtensions, x.Id) {
				c.UnhandledCriticalExtensions = append(c.UnhandledCriticalExtensions, x.Id)
			}
		}
	}
	return nil
}

func containsOID(list []asn1.ObjectIdentifier, oid asn1.ObjectIdentifier) bool {
	for _, o := range list {
		if o.Equal(oid) {
			return true
		}
	}
	return false
}
