package validation_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/qualification"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
)

// End to end: PAdES documents signed by the EU and Swiss branches of the
// fixture PKI, validated against the fixture EU and Swiss lists, give
// each framework's qualification, the handwritten equivalence and the
// reason for anything less (validation-service.md §2; decision 0021).
func TestQualificationEndToEnd(t *testing.T) {
	t.Parallel()
	s := newValidationWith(t, pki.ReferenceTime, tl.EcosystemOptions{Branches: true})
	p := s.pki.PKI
	str := func(v string) *string { return &v }
	yes, no := true, false
	tests := []struct {
		name        string
		signer      *pki.Identity
		tsa         *pki.Identity // nil: a B-level signature, no time-stamp
		framework   string
		eidas       *string
		swiss       *string
		handwritten *bool
		code        string // a warning expected; "" for no QUALIFICATION_ warning
	}{
		{"EU QES, EU qualified time-stamp", p.SignerEUQES, p.TSAEU, "EU_EIDAS", str(qualification.QESig), nil, nil, ""},
		{"EU QES without time-stamp", p.SignerEUQES, nil, "EU_EIDAS", str(qualification.QESig), nil, nil, ""},
		{"EU qualified seal", p.SealEUQES, nil, "EU_EIDAS", str(qualification.QESeal), nil, nil, ""},
		{"EU qualified certificate, no QSCD", p.SignerEUQC, nil, "EU_EIDAS", str(qualification.AdESigQC), nil, nil, qualification.CodeNotQSCD},
		{"EU advanced: a certificate for eSig, not qualified", p.SignerEUAdES, nil, "EU_EIDAS", str(qualification.AdESig), nil, nil, qualification.CodeNotQualified},
		{"EU non-qualified certificate", p.SignerEUPlain, nil, "EU_EIDAS", str(qualification.Unknown), nil, nil, qualification.CodeNotQualified},
		{"Swiss QES, Swiss qualified time-stamp", p.SignerCHQES, p.TSACH, "CH_ZERTES", nil, str(qualification.ZertESQES), &yes, ""},
		{"Swiss QES without time-stamp", p.SignerCHQES, nil, "CH_ZERTES", nil, str(qualification.ZertESQES), &no, qualification.CodeNoQualifiedTimestamp},
		{"Swiss QES, Swiss non-qualified time-stamp", p.SignerCHQES, p.TSACHPlain, "CH_ZERTES", nil, str(qualification.ZertESQES), &no, qualification.CodeNoQualifiedTimestamp},
		{"Swiss QES, EU qualified time-stamp", p.SignerCHQES, p.TSAEU, "CH_ZERTES", nil, str(qualification.ZertESQES), &no, qualification.CodeNoQualifiedTimestamp},
		{"Swiss regulated signature", p.SignerCHRegulated, p.TSACH, "CH_ZERTES", nil, str(qualification.ZertESRegulatedSignature), &no, qualification.CodeNotQualified},
		{"Swiss regulated seal of a UID entity", p.SealCHRegulated, p.TSACH, "CH_ZERTES", nil, str(qualification.ZertESRegulatedSeal), &no, ""},
		{"Swiss advanced signature", p.SignerCHAdvanced, nil, "CH_ZERTES", nil, str(qualification.ZertESAdvanced), &no, qualification.CodeNotQSCD},
		{"a CA on the EU and Swiss lists: the Swiss branch", p.SignerRSAQC, p.TSA, "CH_ZERTES", nil, str(qualification.ZertESQES), &no, qualification.CodeNoQualifiedTimestamp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			d := pades.New(1)
			o := pades.Options{PKI: p, Signer: tt.signer, Level: cades.B, SigningTime: s.at.Add(-time.Hour)}
			if tt.tsa != nil {
				o.Level, o.TSA = cades.T, tt.tsa
			}
			is.NoErr(d.Sign(o))
			sum, err := validate(s.v, validation.Document{Name: "doc.pdf", Data: d.Bytes()}, s.at)
			is.NoErr(err)
			r := sum.Signatures[0]
			is.Equal(r.Indication, verdict.TotalPassed)
			is.Equal(r.TrustFramework, tt.framework)
			is.Equal(orNull(r.EIDASQualification), orNull(tt.eidas))
			is.Equal(orNull(r.SwissQualification), orNull(tt.swiss))
			is.Equal(orNull(r.HandwrittenEquivalent), orNull(tt.handwritten))
			if tt.tsa != nil {
				// The time-stamp is reported with its qualification on the
				// TSA's own list.
				want := map[*pki.Identity]string{p.TSAEU: "QTSA/EU_EIDAS", p.TSACH: "QTSA/CH_ZERTES", p.TSACHPlain: "TSA/CH_ZERTES", p.TSA: "QTSA/EU_EIDAS"}[tt.tsa]
				is.Equal(len(r.Timestamps), 1)
				is.Equal(r.Timestamps[0].Qualification+"/"+r.Timestamps[0].TrustFramework, want)
				is.Equal(r.Timestamps[0].Type, "SIGNATURE_TIMESTAMP")
			} else {
				is.Equal(len(r.Timestamps), 0)
			}
			var codes []string
			for _, w := range r.Warnings {
				if len(w.Code) > 14 && w.Code[:14] == "QUALIFICATION_" {
					codes = append(codes, w.Code)
				}
			}
			if tt.code == "" {
				is.Equal(codes, nil)
			} else if !slices.Contains(codes, tt.code) {
				t.Fatalf("warnings %+v lack %s", r.Warnings, tt.code)
			}
		})
	}
}

// orNull shows a pointer field as its value, or "null".
func orNull[T any](p *T) any {
	if p == nil {
		return "null"
	}
	return *p
}

// The service history, additional information and qualifiers of a
// published list reach the qualification: the DE list's entry for the
// EU CA is republished for each case and the trust store refreshed.
func TestQualificationFromPublishedList(t *testing.T) {
	s := newValidationWith(t, pki.ReferenceTime, tl.EcosystemOptions{Branches: true})
	p := s.pki.PKI
	signedAt := s.at.Add(-time.Hour)
	d := pades.New(1)
	// T: the time-stamp is the proof that the signature existed at
	// signedAt; without it, the signing time would be the validation time.
	if err := d.Sign(pades.Options{PKI: p, Signer: p.SignerEUQES, Level: cades.T, SigningTime: signedAt, TSA: p.TSAEU}); err != nil {
		t.Fatal(err)
	}
	since := p.IntermediateEU.Certificate.NotBefore
	criteria := func(policy string) string {
		return `<sie:CriteriaList assert="atLeastOne"><sie:PolicySet><sie:PolicyIdentifier><xades:Identifier>` + policy + `</xades:Identifier></sie:PolicyIdentifier></sie:PolicySet></sie:CriteriaList>`
	}
	const qcpNQSCD = "0.4.0.194112.1.2" // the QES signer's policy
	tests := []struct {
		name string
		edit func(*tl.Service)
		want string
		code string
	}{
		{"granted", func(*tl.Service) {}, qualification.QESig, ""},
		// A CA withdrawn before the signature existed is no trust anchor
		// for it (decision 0018): the signature is INDETERMINATE, and so
		// is its qualification.
		{"withdrawn before signing", func(svc *tl.Service) {
			svc.Status, svc.StatusStart = tl.StatusWithdrawn, signedAt.Add(-24*time.Hour)
			svc.History = []tl.Period{{Start: since}}
		}, "INDETERMINATE_" + qualification.AdESig, qualification.CodeServiceNotGranted},
		{"withdrawn after signing", func(svc *tl.Service) {
			svc.Status, svc.StatusStart = tl.StatusWithdrawn, signedAt.Add(30*time.Minute)
			svc.History = []tl.Period{{Start: since}}
		}, qualification.QESig, ""},
		{"QCNoQSCD for the signer's policy", func(svc *tl.Service) {
			svc.Qualifications = []tl.Qualification{{Qualifiers: []string{tl.QualifierQCNoQSCD}, CriteriaXML: criteria(qcpNQSCD)}}
		}, qualification.AdESigQC, qualification.CodeNotQSCD},
		{"QCNoQSCD for another policy: the criteria miss", func(svc *tl.Service) {
			svc.Qualifications = []tl.Qualification{{Qualifiers: []string{tl.QualifierQCNoQSCD}, CriteriaXML: criteria("1.2.3.4")}}
		}, qualification.QESig, ""},
		{"QCForESeal: the service does not cover signatures", func(svc *tl.Service) {
			svc.Qualifications = []tl.Qualification{{Qualifiers: []string{tl.QualifierQCForESeal}, CriteriaXML: criteria(qcpNQSCD)}}
		}, qualification.NA, qualification.CodeTypeNotCovered},
		{"a service for seals only", func(svc *tl.Service) { svc.AdditionalInfo = []string{tl.ASIForeSeals} }, qualification.NA, qualification.CodeTypeNotCovered},
		{"NotQualified", func(svc *tl.Service) {
			svc.Qualifications = []tl.Qualification{{Qualifiers: []string{tl.QualifierNotQualified}, CriteriaXML: criteria(qcpNQSCD)}}
		}, qualification.AdESig, qualification.CodeNotQualified},
	}
	base := s.eco.Spec("DE")
	for _, tt := range tests {
		spec := base
		spec.SequenceNumber++
		spec.Services = slices.Clone(base.Services)
		i := slices.IndexFunc(spec.Services, func(svc tl.Service) bool { return svc.Certificate.Equal(p.IntermediateEU.Certificate) })
		if i < 0 {
			t.Fatal("the EU CA is not on the DE list")
		}
		tt.edit(&spec.Services[i])
		if err := s.eco.Publish("DE", spec, 0); err != nil {
			t.Fatal(err)
		}
		s.v.Refresh(context.Background())
		sum, err := validate(s.v, validation.Document{Name: "doc.pdf", Data: d.Bytes()}, s.at)
		if err != nil {
			t.Fatal(err)
		}
		r := sum.Signatures[0]
		if r.EIDASQualification == nil || *r.EIDASQualification != tt.want {
			t.Errorf("%s: eidasQualification %v, want %s (warnings %+v)", tt.name, orNull(r.EIDASQualification), tt.want, r.Warnings)
			continue
		}
		if tt.code != "" && !slices.ContainsFunc(r.Warnings, func(w verdict.Message) bool { return w.Code == tt.code }) {
			t.Errorf("%s: warnings %+v lack %s", tt.name, r.Warnings, tt.code)
		}
	}
}
