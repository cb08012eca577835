package cades

import (
	"crypto/x509"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/adapters/formats/internal/validationdata"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
)

// validationData is what a signature or time-stamp token carries for validation
// (validationdata.Set), with the CAdES reader's ways of reading it.
type validationData struct{ *validationdata.Set }

func newValidationData() *validationData {
	return &validationData{validationdata.New(MaxCertificates, MaxRevocationValues)}
}

// addSignedData adds the certificates and crls fields of sd. OCSP
// responses in crls (RFC 5940 id-ri-ocsp-response) are OCSPResponses;
// a BasicOCSPResponse under id-pkix-ocsp-basic (as DSS writes) is wrapped
// into a successful OCSPResponse, so OCSPResponses always holds full
// OCSPResponse encodings.
func (v *validationData) addSignedData(sd *cms.SignedData) {
	for _, c := range sd.Certificates {
		v.AddCertificate(c)
	}
	for _, b := range sd.BadCertificates {
		v.Problem(CodeBadCertificate, "an embedded certificate does not parse: %v", b.Err)
	}
	for _, crl := range sd.CRLs {
		v.AddCRL(crl)
	}
	for _, o := range sd.OtherRevocationInfo {
		switch {
		case o.Format.Equal(cms.OIDRevInfoOCSPResponse):
			v.AddOCSP(o.Info)
		case o.Format.Equal(oidOCSPBasic):
			if full, err := ocsp.Wrap(o.Info); err == nil {
				v.AddOCSP(full)
			}
		default:
			v.Problem(CodeMalformedAttribute, "other revocation information of format %v ignored", o.Format)
		}
	}
}

// addAttributes adds the certificate-values and revocation-values
// unsigned attributes of si (EN 319 122-1, 5.5.1 and 5.5.2), and returns
// the certificates of certificate-values.
func (v *validationData) addAttributes(si *cms.SignerInfo) []*x509.Certificate {
	var added []*x509.Certificate
	for _, a := range si.UnsignedAttrs.Find(OIDAttrCertificateValues) {
		for _, val := range a.Values {
			in := cryptobyte.String(val)
			var seq cryptobyte.String
			if !in.ReadASN1(&seq, cbasn1.SEQUENCE) {
				v.Problem(CodeMalformedAttribute, "certificate-values is not a SEQUENCE OF Certificate")
				continue
			}
			for n := 0; !seq.Empty() && n < MaxAttributeItems; n++ {
				var c cryptobyte.String
				if !seq.ReadASN1Element(&c, cbasn1.SEQUENCE) {
					v.Problem(CodeMalformedAttribute, "certificate-values entry is not a Certificate")
					break
				}
				parsed, err := cert.Parse(c)
				if err != nil {
					v.Problem(CodeBadCertificate, "a certificate-values certificate does not parse: %v", err)
					continue
				}
				v.AddCertificate(parsed)
				added = append(added, parsed)
			}
		}
	}
	for _, a := range si.UnsignedAttrs.Find(OIDAttrRevocationValues) {
		for _, val := range a.Values {
			if err := v.addRevocationValues(val); err != nil {
				v.Problem(CodeMalformedAttribute, "revocation-values: %v", err)
			}
		}
	}
	return added
}

// addRevocationValues reads RevocationValues (RFC 5126, EXPLICIT tags):
//
//	RevocationValues ::= SEQUENCE {
//	  crlVals      [0] SEQUENCE OF CertificateList OPTIONAL,
//	  ocspVals     [1] SEQUENCE OF BasicOCSPResponse OPTIONAL,
//	  otherRevVals [2] OtherRevVals OPTIONAL }
func (v *validationData) addRevocationValues(der []byte) error {
	in := cryptobyte.String(der)
	var body cryptobyte.String
	if !in.ReadASN1(&body, cbasn1.SEQUENCE) {
		return fmt.Errorf("not a SEQUENCE")
	}
	addBasic := func(b []byte) {
		if full, err := ocsp.Wrap(b); err == nil {
			v.AddOCSP(full)
		}
	}
	for _, f := range []struct {
		tag cbasn1.Tag
		add func([]byte)
	}{
		{cbasn1.Tag(0).ContextSpecific().Constructed(), v.AddCRL},
		{cbasn1.Tag(1).ContextSpecific().Constructed(), addBasic},
	} {
		tag, add := f.tag, f.add
		probe := body
		var explicit, seq cryptobyte.String
		for !probe.Empty() {
			var e cryptobyte.String
			var t cbasn1.Tag
			if !probe.ReadAnyASN1(&e, &t) {
				return fmt.Errorf("malformed field")
			}
			if t != tag {
				continue
			}
			explicit = e
			if !explicit.ReadASN1(&seq, cbasn1.SEQUENCE) {
				return fmt.Errorf("field [%d] is not a SEQUENCE OF", tag&0x1f)
			}
			for n := 0; !seq.Empty() && n < MaxAttributeItems; n++ {
				var item cryptobyte.String
				if !seq.ReadASN1Element(&item, cbasn1.SEQUENCE) {
					return fmt.Errorf("field [%d] entry", tag&0x1f)
				}
				add(item)
			}
		}
	}
	return nil
}
