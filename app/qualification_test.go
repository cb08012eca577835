package app_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app"
	"github.com/svc-dss/dss/domain/qualification"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
	"github.com/svc-dss/dss/ports"
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
			sum, err := s.v.Validate(context.Background(), ports.Document{Name: "doc.pdf", Data: d.Bytes()}, app.ValidateOptions{At: s.at})
			is.NoErr(err)
			r := sum.Signatures[0]
			is.Equal(r.Indication, "TOTAL_PASSED")
			is.Equal(r.TrustFramework, tt.framework)
			is.Equal(orNull(r.EIDASQualification), orNull(tt.eidas))
			is.Equal(orNull(r.SwissQualification), orNull(tt.swiss))
			is.Equal(orNull(r.HandwrittenEquivalent), orNull(tt.handwritten))
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
