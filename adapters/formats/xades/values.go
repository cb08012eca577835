package xades

import (
	"bytes"
	"crypto/x509"
	"fmt"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/domain/ades"
)

// validationData is what a signature carries for validation:
// certificates and revocation data, deduplicated by their bytes, in order
// of appearance.
type validationData struct {
	certs    []*x509.Certificate
	crls     [][]byte
	ocsp     [][]byte
	problems []ades.Problem
	over     bool // a limit was reached; the rest was left out
}

func (v *validationData) addCert(c *x509.Certificate) {
	for _, have := range v.certs {
		if bytes.Equal(have.Raw, c.Raw) {
			return
		}
	}
	if len(v.certs) == MaxCertificates {
		v.over = true
		return
	}
	v.certs = append(v.certs, c)
}

func (v *validationData) addRaw(list [][]byte, b []byte) [][]byte {
	for _, have := range list {
		if bytes.Equal(have, b) {
			return list
		}
	}
	if len(v.crls)+len(v.ocsp) >= MaxRevocationValues {
		v.over = true
		return list
	}
	return append(list, b)
}

func (v *validationData) problem(code, format string, args ...any) {
	v.problems = append(v.problems, ades.Problem{Code: code, Message: fmt.Sprintf(format, args...)})
}

// addCertificateValues reads a xades:CertificateValues (or a KeyInfo's
// ds:X509Data): each EncapsulatedX509Certificate (X509Certificate). It
// returns how many certificates it held.
func (v *validationData) addCertificateValues(el *etree.Element) int {
	n := 0
	for _, c := range el.ChildElements() {
		if !isXAdES(c, "EncapsulatedX509Certificate") && !isDS(c, "X509Certificate") {
			continue
		}
		if n++; n > MaxCertificates {
			v.over = true
			break
		}
		der, err := decodeBase64(c.Text())
		if err != nil {
			v.problem(CodeBadCertificate, "%s: %v", c.Tag, err)
			continue
		}
		crt, err := cert.Parse(der)
		if err != nil {
			v.problem(CodeBadCertificate, "%s does not parse: %v", c.Tag, err)
			continue
		}
		v.addCert(crt)
	}
	return n
}

// addRevocationValues reads a xades:RevocationValues: CRLValues and
// OCSPValues. It returns how many values it held.
func (v *validationData) addRevocationValues(el *etree.Element) int {
	n := 0
	for _, group := range el.ChildElements() {
		var isOCSP bool
		switch {
		case isXAdES(group, "CRLValues"):
		case isXAdES(group, "OCSPValues"):
			isOCSP = true
		default:
			continue // OtherValues: nothing this reader knows
		}
		for _, val := range group.ChildElements() {
			if !isXAdES(val, "EncapsulatedCRLValue") && !isXAdES(val, "EncapsulatedOCSPValue") {
				continue
			}
			if n++; n > MaxRevocationValues {
				v.over = true
				return n
			}
			der, err := decodeBase64(val.Text())
			if err != nil {
				v.problem(CodeMalformedProperty, "%s: %v", val.Tag, err)
				continue
			}
			if isOCSP {
				v.ocsp = v.addRaw(v.ocsp, ocsp.Full(der))
			} else {
				v.crls = v.addRaw(v.crls, der)
			}
		}
	}
	return n
}
