package etsi_test

import (
	"crypto/x509"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

func TestReport(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	cases := []struct {
		name      string
		anchor    *certpath.Anchor // nil: no path
		result    etsi.Result
		framework string
		country   string // "": nil
		authentic bool
		format    string
		level     ades.Level // the reader's
	}{
		{
			name:      "spec 2 rule 1: EU anchor gives EU_EIDAS and the list territory",
			anchor:    &certpath.Anchor{Certificate: p.Root.Certificate, Framework: trust.EUEIDAS, Territory: "DE", Authenticated: true},
			result:    etsi.Result{Indication: verdict.TotalPassed},
			framework: verdict.FrameworkEUEIDAS, country: "DE", authentic: true, format: "CAdES_BASELINE_LT", level: ades.LevelLT,
		},
		{
			name:      "spec 2 trustData: anchor list not authenticated",
			anchor:    &certpath.Anchor{Certificate: p.Root.Certificate, Framework: trust.EUEIDAS, Territory: "DE"},
			result:    etsi.Result{Indication: verdict.TotalPassed},
			framework: verdict.FrameworkEUEIDAS, country: "DE", authentic: false, format: "CAdES_BASELINE_B", level: ades.LevelB,
		},
		{
			name:      "spec 2 rule 3: Swiss anchor gives CH_ZERTES",
			anchor:    &certpath.Anchor{Certificate: p.Root.Certificate, Framework: trust.CHZERTES, Territory: "CH", Authenticated: true},
			result:    etsi.Result{Indication: verdict.TotalPassed},
			framework: verdict.FrameworkCHZertES, country: "CH", authentic: true, format: "CAdES_BASELINE_T", level: ades.LevelT,
		},
		{
			name:      "spec 2 rule 5: private anchor gives UNKNOWN and no country",
			anchor:    &certpath.Anchor{Certificate: p.Root.Certificate, Framework: trust.Unknown, Private: true, Authenticated: true},
			result:    etsi.Result{Indication: verdict.TotalPassed},
			framework: verdict.FrameworkUnknown, format: "CAdES_BASELINE_B", level: ades.LevelB,
		},
		{
			name: "spec 2 rule 2: no path gives UNKNOWN, never EU_EIDAS",
			result: etsi.Result{Indication: verdict.Indeterminate, SubIndication: verdict.SubNoCertificateChainFound,
				Errors: []verdict.Message{{Code: string(verdict.SubNoCertificateChainFound), Message: "no chain"}}},
			framework: verdict.FrameworkUnknown, format: "CAdES_NOT_ETSI", level: ades.NotBaseline,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig := signature(p.SignerRSA)
			sig.Level = c.level
			r := c.result
			if c.anchor != nil {
				r.Path = &certpath.Path{Certificates: []*x509.Certificate{p.SignerRSA.Certificate, p.Intermediate.Certificate, p.Root.Certificate}, Anchor: *c.anchor}
			}
			rep := etsi.Report(sig, r)
			is.Equal(rep.SignatureID, "S-1")
			is.Equal(rep.SignatureFormat, c.format)
			is.Equal(rep.Indication, r.Indication)
			if r.Indication == verdict.TotalPassed {
				is.Equal(rep.SubIndication, nil)
			} else {
				is.True(rep.SubIndication != nil)
				is.Equal(*rep.SubIndication, r.SubIndication)
			}
			is.Equal(rep.TrustFramework, c.framework)
			if c.country == "" {
				is.Equal(rep.AnchorCountry, nil)
			} else {
				is.True(rep.AnchorCountry != nil)
				is.Equal(*rep.AnchorCountry, c.country)
			}
			is.Equal(rep.AnchorDataAuthenticated, c.authentic)
			is.Equal(rep.EIDASQualification, nil)
			is.Equal(rep.SwissQualification, nil)
			is.Equal(rep.HandwrittenEquivalent, nil)
			is.True(rep.Errors != nil)
			is.True(rep.Warnings != nil)
			is.Equal(len(rep.Errors), len(r.Errors))
		})
	}
}

// TestReportFromValidate runs the whole sequence with a Swiss anchor.
func TestReportFromValidate(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	sig := signature(p.SignerECDSAQC)
	in := inputs(p)
	in.Anchors = certpath.NewAnchorSet([]certpath.Anchor{{Certificate: p.Root.Certificate, Framework: trust.CHZERTES, Territory: "CH", Authenticated: true}})
	in.Revocation = goodFacts(sig, in, true)
	r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
	rep := etsi.Report(sig, r)
	is.Equal(rep.Indication, verdict.TotalPassed)
	is.Equal(rep.TrustFramework, verdict.FrameworkCHZertES)
	is.Equal(*rep.AnchorCountry, "CH")
	is.True(rep.AnchorDataAuthenticated)
	is.Equal(rep.SignatureFormat, "CAdES_BASELINE_B")
	is.Equal(rep.PDF, nil) // not a PDF signature: the object is left out

	sig.Placement = &ades.Placement{Kind: ades.PDFField, Name: "Approval", Reason: "approved", Location: "Bern", Revision: 2}
	rep = etsi.Report(sig, r)
	is.Equal(*rep.PDF, verdict.PDFSignature{Field: "Approval", Revision: 2, Reason: "approved", Location: "Bern"})
}
