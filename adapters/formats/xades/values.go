package xades

import (
	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/internal/validationdata"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
)

// validationData is what a signature carries for validation
// (validationdata.Set), with the XAdES reader's ways of reading it.
type validationData struct{ *validationdata.Set }

func newValidationData() *validationData {
	return &validationData{validationdata.New(MaxCertificates, MaxRevocationValues)}
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
			v.Over = true
			break
		}
		der, err := decodeBase64(c.Text())
		if err != nil {
			v.Problem(CodeBadCertificate, "%s: %v", c.Tag, err)
			continue
		}
		crt, err := cert.Parse(der)
		if err != nil {
			v.Problem(CodeBadCertificate, "%s does not parse: %v", c.Tag, err)
			continue
		}
		v.AddCertificate(crt)
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
				v.Over = true
				return n
			}
			der, err := decodeBase64(val.Text())
			if err != nil {
				v.Problem(CodeMalformedProperty, "%s: %v", val.Tag, err)
				continue
			}
			if isOCSP {
				v.AddOCSP(ocsp.Full(der))
			} else {
				v.AddCRL(der)
			}
		}
	}
	return n
}
