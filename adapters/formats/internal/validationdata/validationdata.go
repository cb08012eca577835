// Package validationdata collects what a signature or a time-stamp token
// carries for its own validation: certificates and revocation data,
// deduplicated by their bytes, in order of appearance, within bounds. The
// CAdES, XAdES and JAdES readers each read their own encoding of it into
// a Set.
package validationdata

import (
	"bytes"
	"crypto/x509"
	"fmt"
	"math/big"
	"slices"

	"github.com/svc-dss/dss/adapters/formats/crl"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/domain/ades"
)

// A Set is the validation data of one signature or token. Make it with
// New: its bounds are the reader's.
type Set struct {
	Certificates []*x509.Certificate
	// CRLs and OCSPResponses are raw, as ades.Signature carries them.
	CRLs, OCSPResponses [][]byte
	// Problems are the reader's findings about the data.
	Problems []ades.Problem
	// Over is true once a bound left something out.
	Over bool

	maxCertificates, maxRevocationValues int
}

// New returns an empty set that keeps at most maxCertificates
// certificates and maxRevocationValues CRLs and OCSP responses together.
func New(maxCertificates, maxRevocationValues int) *Set {
	return &Set{maxCertificates: maxCertificates, maxRevocationValues: maxRevocationValues}
}

// AddCertificate adds c unless the set holds it already.
func (s *Set) AddCertificate(c *x509.Certificate) {
	for _, have := range s.Certificates {
		if bytes.Equal(have.Raw, c.Raw) {
			return
		}
	}
	if len(s.Certificates) >= s.maxCertificates {
		s.Over = true
		return
	}
	s.Certificates = append(s.Certificates, c)
}

// AddCRL adds the DER CRL b unless the set holds it already.
func (s *Set) AddCRL(b []byte) { s.CRLs = s.addRevocation(s.CRLs, b) }

// AddOCSP adds the DER OCSPResponse b unless the set holds it already.
func (s *Set) AddOCSP(b []byte) { s.OCSPResponses = s.addRevocation(s.OCSPResponses, b) }

func (s *Set) addRevocation(list [][]byte, b []byte) [][]byte {
	for _, have := range list {
		if bytes.Equal(have, b) {
			return list
		}
	}
	if len(s.CRLs)+len(s.OCSPResponses) >= s.maxRevocationValues {
		s.Over = true
		return list
	}
	return append(list, b)
}

// Problem records a finding with its stable code.
func (s *Set) Problem(code, format string, args ...any) {
	s.Problems = append(s.Problems, ades.Problem{Code: code, Message: fmt.Sprintf(format, args...)})
}

// Revocations is what a set of CRLs and OCSP responses is about: the
// issuers of the CRLs and the serial numbers the responses answer for.
// What does not parse is about nothing.
type Revocations struct {
	crlIssuers  [][]byte
	ocspSerials []*big.Int
}

// RevocationsOf parses crls and ocsps once, for About.
func RevocationsOf(crls, ocsps [][]byte) Revocations {
	var r Revocations
	for _, der := range crls {
		if l, err := crl.Parse(der); err == nil {
			r.crlIssuers = append(r.crlIssuers, l.RawIssuer)
		}
	}
	for _, der := range ocsps {
		if resp, err := ocsp.ParseResponse(der); err == nil && resp.Basic != nil {
			for _, sr := range resp.Basic.Responses {
				if sr.CertID.SerialNumber != nil {
					r.ocspSerials = append(r.ocspSerials, sr.CertID.SerialNumber)
				}
			}
		}
	}
	return r
}

// About reports whether the data is about c, a certificate the document
// carries (carried: the signature's, its time-stamp tokens', a PDF's
// stores'): an OCSP response about its serial number, or a CRL of its
// issuer whose certificate the document carries too, so that the CRL can
// be checked at all (DSS takes no revocation data it cannot verify:
// pades-010's store holds the CRL of its TSA's CA but not that CA's
// certificate, and DSS calls it T). It depends on the document alone: a
// certificate the document does not carry (found among the validator's
// certificates, ports.Document.Certificates) has no data here. Whether the
// data is usable, and whether the rest of the chain is covered, is the
// process's question (etsi: LEVEL_NOT_SUPPORTED_BY_EVIDENCE).
func (r Revocations) About(c *x509.Certificate, carried []*x509.Certificate) bool {
	if c == nil || !slices.ContainsFunc(carried, c.Equal) {
		return false
	}
	issuerCarried := slices.ContainsFunc(carried, func(i *x509.Certificate) bool { return bytes.Equal(i.RawSubject, c.RawIssuer) })
	return issuerCarried && slices.ContainsFunc(r.crlIssuers, func(issuer []byte) bool { return bytes.Equal(issuer, c.RawIssuer) }) ||
		slices.ContainsFunc(r.ocspSerials, func(serial *big.Int) bool { return serial.Cmp(c.SerialNumber) == 0 })
}
