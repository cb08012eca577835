package cms

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"fmt"
	"math/big"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// An ESSCertID identifies a certificate by hash and, optionally, issuer and
// serial number: ESSCertID (RFC 2634, section 5.4.1; SHA-1) or ESSCertIDv2
// (RFC 5035, section 4; SHA-256 by default).
type ESSCertID struct {
	Hash     crypto.Hash
	CertHash []byte

	// IssuerNames are the directoryName entries of issuerSerial.issuer
	// (DER Names), SerialNumber its serial; both nil without issuerSerial.
	IssuerNames  [][]byte
	SerialNumber *big.Int
}

// Matches reports whether c is the certificate id identifies: the hash of
// its encoding equals CertHash and, when issuerSerial is present, its
// serial number and one of the issuer names match c.
func (id ESSCertID) Matches(c *x509.Certificate) bool {
	if !id.Hash.Available() {
		return false
	}
	h := id.Hash.New()
	h.Write(c.Raw)
	if !bytes.Equal(h.Sum(nil), id.CertHash) {
		return false
	}
	if id.SerialNumber == nil {
		return true
	}
	if c.SerialNumber == nil || id.SerialNumber.Cmp(c.SerialNumber) != 0 {
		return false
	}
	for _, name := range id.IssuerNames {
		if cert.EqualNames(name, c.RawIssuer) {
			return true
		}
	}
	return false
}

// SigningCertificate returns the certificate identifiers of the ESS
// signing-certificate-v2 attribute of si, or else of its
// signing-certificate attribute; nil when it has neither. The first
// identifies the signer certificate.
func (si *SignerInfo) SigningCertificate() ([]ESSCertID, error) {
	if v, ok, err := si.SignedAttrs.Single(OIDAttrSigningCertificateV2); err != nil {
		return nil, err
	} else if ok {
		return ParseSigningCertificate(v, true)
	}
	if v, ok, err := si.SignedAttrs.Single(OIDAttrSigningCertificate); err != nil {
		return nil, err
	} else if ok {
		return ParseSigningCertificate(v, false)
	}
	return nil, nil
}

// ParseSigningCertificate reads a SigningCertificateV2 (v2 true) or
// SigningCertificate attribute value, DER. Policies are not read.
func ParseSigningCertificate(der []byte, v2 bool) ([]ESSCertID, error) {
	in := cryptobyte.String(der)
	var seq, certs cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() || !seq.ReadASN1(&certs, cbasn1.SEQUENCE) {
		return nil, fmt.Errorf("%w: signing-certificate attribute", ErrMalformed)
	}
	var ids []ESSCertID
	for !certs.Empty() {
		if len(ids) == MaxESSCertIDs {
			return nil, fmt.Errorf("%w: more than %d ESS certificate identifiers", ErrLimitExceeded, MaxESSCertIDs)
		}
		var certID cryptobyte.String
		if !certs.ReadASN1(&certID, cbasn1.SEQUENCE) {
			return nil, fmt.Errorf("%w: ESSCertID", ErrMalformed)
		}
		id := ESSCertID{Hash: crypto.SHA1}
		if v2 {
			id.Hash = crypto.SHA256
			if certID.PeekASN1Tag(cbasn1.SEQUENCE) {
				var alg cryptobyte.String
				certID.ReadASN1Element(&alg, cbasn1.SEQUENCE)
				h, err := cert.HashFromAlgorithmIdentifier(alg)
				if err != nil {
					return nil, fmt.Errorf("ESSCertIDv2 hashAlgorithm: %w", wrapCertError(err))
				}
				id.Hash = h
			}
		}
		var hash cryptobyte.String
		if !certID.ReadASN1(&hash, cbasn1.OCTET_STRING) {
			return nil, fmt.Errorf("%w: ESSCertID certHash", ErrMalformed)
		}
		id.CertHash = hash
		if !certID.Empty() {
			if err := id.readIssuerSerial(&certID); err != nil {
				return nil, err
			}
		}
		if !certID.Empty() {
			return nil, fmt.Errorf("%w: trailing data in ESSCertID", ErrMalformed)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// readIssuerSerial reads IssuerSerial ::= SEQUENCE { issuer GeneralNames,
// serialNumber CertificateSerialNumber }.
func (id *ESSCertID) readIssuerSerial(s *cryptobyte.String) error {
	var is, names cryptobyte.String
	if !s.ReadASN1(&is, cbasn1.SEQUENCE) || !is.ReadASN1(&names, cbasn1.SEQUENCE) {
		return fmt.Errorf("%w: IssuerSerial", ErrMalformed)
	}
	for n := 0; !names.Empty(); n++ {
		if n == cert.MaxGeneralNames {
			return fmt.Errorf("%w: more than %d issuer names", ErrLimitExceeded, cert.MaxGeneralNames)
		}
		var gn cryptobyte.String
		var tag cbasn1.Tag
		if !names.ReadAnyASN1(&gn, &tag) {
			return fmt.Errorf("%w: IssuerSerial issuer", ErrMalformed)
		}
		if tag != cbasn1.Tag(4).ContextSpecific().Constructed() {
			continue // not a directoryName
		}
		var name cryptobyte.String
		if !gn.ReadASN1Element(&name, cbasn1.SEQUENCE) {
			return fmt.Errorf("%w: IssuerSerial directoryName", ErrMalformed)
		}
		id.IssuerNames = append(id.IssuerNames, name)
	}
	id.SerialNumber = new(big.Int)
	if !is.ReadASN1Integer(id.SerialNumber) || !is.Empty() {
		return fmt.Errorf("%w: IssuerSerial serialNumber", ErrMalformed)
	}
	return nil
}
