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
