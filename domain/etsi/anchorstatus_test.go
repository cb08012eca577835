package etsi_test

import (
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// Trust-service status at the best-signature-time (EN 319 102-1, TS 119
// 615; decision 0018): the root's service on the DE list is granted,
// then withdrawn at a given time; the signer and the TSA chain to it.
func TestValidateTrustServiceStatus(t *testing.T) {
	t.Parallel()
	gen := vt.Add(-2 * time.Hour) // the signature time-stamp's generation time
	tests := []struct {
		name      string
		withdrawn time.Time // zero: granted throughout
		stamped   bool      // a signature time-stamp at gen
		private   bool      // the root is a private anchor too
		want      verdict.Indication
		wantSub   verdict.SubIndication
		warning   string
	}{
		{"granted throughout, no time-stamp", time.Time{}, false, false, verdict.TotalPassed, "", ""},
		{"withdrawn before the validation time, no time-stamp", vt.Add(-time.Hour), false, false, verdict.Indeterminate, verdict.SubNoCertificateChainFound, ""},
		{"withdrawn after the signature time-stamp", vt.Add(-time.Hour), true, false, verdict.TotalPassed, "", ""},
		{"withdrawn before the signature time-stamp: the TSA is no anchor either", gen.Add(-time.Hour), true, false, verdict.Indeterminate, verdict.SubNoCertificateChainFound, etsi.CodeTimestampNotTrusted},
		{"withdrawn, but the root is also a private anchor", vt.Add(-time.Hour), false, true, verdict.TotalPassed, "", ""},
		{"withdrawn after the validation time", vt.Add(time.Hour), false, false, verdict.TotalPassed, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			p := newPKI(t)
			svc := &trust.Service{Name: "Root CA", Type: trust.TypeCAQC, Status: trust.StatusGranted, StatusStart: p.Root.Certificate.NotBefore}
			if !tt.withdrawn.IsZero() {
				svc.History = []trust.StatusPeriod{{Type: trust.TypeCAQC, Status: trust.StatusGranted, Start: svc.StatusStart}}
				svc.Status, svc.StatusStart = trust.StatusWithdrawn, tt.withdrawn
			}
			listed := euAnchor(p)
			listed.Service = svc
			anchors := []certpath.Anchor{listed}
			if tt.private {
				anchors = append(anchors, certpath.Anchor{Certificate: p.Root.Certificate, Private: true})
			}
			in := inputs(p)
			in.Anchors = certpath.NewAnchorSet(anchors)
			sig := signature(p.SignerRSA)
			if tt.stamped {
				sig.Level = ades.LevelT
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, gen, p.TSA.Certificate)}
			}
			in.Revocation = goodFacts(sig, in, false)
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
			is.Equal(r.Indication, tt.want)
			is.Equal(r.SubIndication, tt.wantSub)
			if tt.warning != "" {
				is.True(slices.Contains(codes(r.Warnings), tt.warning))
			}
		})
	}
}
