package etsi_test

import (
	"crypto/x509"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
)

// Revocation data issued after the validation time (decision 0035): it
// settles the status at the validation time, as DSS's does, because a
// revocation is permanent: GOOD later means not revoked then, a
// revocation time after the validation time means not revoked then, and
// one at or before it still means REVOKED. A suspension (certificateHold)
// is the exception, and GOOD issued after the certificate expired proves
// nothing. The signature has no time-stamp: the validation time is the
// only time the facts are judged at.
func TestRevocationIssuedAfterValidationTime(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	signer, ca := p.SignerRSA.Certificate, p.Intermediate.Certificate
	late := func(c *issuedFact) revocation.Fact {
		f := fact(c.cert, c.issuer, c.status, true)
		f.ProducedAt, f.ThisUpdate, f.NextUpdate = c.issued, c.issued, c.issued.Add(24*time.Hour)
		f.RevokedAt, f.Reason = c.revokedAt, c.reason
		return f
	}
	after := vt.Add(47 * 24 * time.Hour) // a month and a half later, as xades-037's
	tests := []struct {
		name  string
		facts []issuedFact
		ind   verdict.Indication
		sub   verdict.SubIndication
	}{
		{"GOOD issued after the validation time serves",
			[]issuedFact{{cert: signer, issuer: ca, status: revocation.Good, issued: after}},
			verdict.TotalPassed, ""},
		{"GOOD issued after the certificate expired does not",
			[]issuedFact{{cert: signer, issuer: ca, status: revocation.Good, issued: signer.NotAfter.Add(time.Hour)}},
			verdict.Indeterminate, verdict.SubTryLater},
		{"revoked before the validation time, said after it: still REVOKED",
			[]issuedFact{{cert: signer, issuer: ca, status: revocation.Revoked, issued: after, revokedAt: vt.Add(-24 * time.Hour), reason: 1}},
			verdict.Indeterminate, verdict.SubRevokedNoPOE},
		{"a later GOOD does not undo a revocation before the validation time",
			[]issuedFact{
				{cert: signer, issuer: ca, status: revocation.Good, issued: after},
				{cert: signer, issuer: ca, status: revocation.Revoked, issued: after.Add(time.Hour), revokedAt: vt.Add(-time.Second), reason: 1},
			},
			verdict.Indeterminate, verdict.SubRevokedNoPOE},
		{"the CA revoked before the validation time, said after it: REVOKED_CA",
			[]issuedFact{
				{cert: signer, issuer: ca, status: revocation.Good, issued: after},
				{cert: ca, issuer: p.Root.Certificate, status: revocation.Revoked, issued: after, revokedAt: vt.Add(-24 * time.Hour), reason: 2},
			},
			verdict.Indeterminate, verdict.SubRevokedCANoPOE},
		{"revoked after the validation time: not revoked then",
			[]issuedFact{{cert: signer, issuer: ca, status: revocation.Revoked, issued: after, revokedAt: vt.Add(24 * time.Hour), reason: 1}},
			verdict.TotalPassed, ""},
		{"suspended after the validation time: an earlier suspension is not excluded",
			[]issuedFact{{cert: signer, issuer: ca, status: revocation.Revoked, issued: after, revokedAt: vt.Add(24 * time.Hour), reason: revocation.ReasonCertificateHold}},
			verdict.Indeterminate, verdict.SubTryLater},
		{"suspended before the validation time, said after it: not assumed lifted",
			[]issuedFact{{cert: signer, issuer: ca, status: revocation.Revoked, issued: after, revokedAt: vt.Add(-24 * time.Hour), reason: revocation.ReasonCertificateHold}},
			verdict.Indeterminate, verdict.SubRevokedNoPOE},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig := signature(p.SignerRSA)
			in := inputs(p)
			in.Revocation = goodFacts(sig, in, true) // the CA's, issued before the validation time
			replaced := map[string]bool{}
			for _, c := range tc.facts {
				k := etsi.Key(c.cert)
				if !replaced[k] {
					in.Revocation[k], replaced[k] = nil, true
				}
				in.Revocation[k] = append(in.Revocation[k], late(&c))
			}
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
			is.Equal(r.Indication, tc.ind)
			is.Equal(r.SubIndication, tc.sub)
			is.Equal(r.BestSignatureTime, vt) // no proof of existence came into it
		})
	}
}

// issuedFact is a revocation fact about cert, issued at issued.
type issuedFact struct {
	cert, issuer *x509.Certificate
	status       revocation.Status
	issued       time.Time
	revokedAt    time.Time
	reason       int
}
