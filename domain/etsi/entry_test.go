package etsi_test

import (
	"crypto/x509"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
)

// ValidateTimestamp is EN 319 102-1 5.4 on a time-stamp entry: the
// format, the time-stamped data (found, intact), then the checks of a
// signature's time-stamp, made in one place. Each row breaks one thing
// and names the indication and sub-indication it gives.
func TestValidateTimestamp(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	gen := vt.Add(-24 * time.Hour)
	entry := func() ades.TimestampEntry {
		ts := timestamp(ades.ContentTimestamp, gen, p.TSA.Certificate)
		return ades.TimestampEntry{
			ID: "T-1", Name: "contract.tst", Timestamp: ts,
			DataObjects: []ades.DataObject{{Name: "contract.txt", Found: true, Intact: true, DigestAlgorithm: "SHA-256"}},
		}
	}
	tests := []struct {
		name   string
		change func(*ades.TimestampEntry, *etsi.Inputs)
		ind    verdict.Indication
		sub    verdict.SubIndication
		code   string
	}{
		{"5.4 PASSED", func(*ades.TimestampEntry, *etsi.Inputs) {}, verdict.Passed, "", ""},
		{"a format failure", func(e *ades.TimestampEntry, _ *etsi.Inputs) {
			e.Problems = []ades.Problem{{Code: "ASIC_MIMETYPE_MISSING", Message: "no mimetype", FormatFailure: true}}
		}, verdict.Failed, verdict.SubFormatFailure, string(verdict.SubFormatFailure)},
		{"a format warning passes", func(e *ades.TimestampEntry, _ *etsi.Inputs) {
			e.Problems = []ades.Problem{{Code: "ASIC_MIMETYPE_COMPRESSED", Message: "compressed"}}
		}, verdict.Passed, "", ""},
		{"data altered (imprint or manifest entry)", func(e *ades.TimestampEntry, _ *etsi.Inputs) {
			e.DataObjects[0].Intact = false
		}, verdict.Failed, verdict.SubHashFailure, string(verdict.SubHashFailure)},
		{"no data given", func(e *ades.TimestampEntry, _ *etsi.Inputs) {
			e.DataObjects = nil
		}, verdict.Indeterminate, verdict.SubSignedDataNotFound, string(verdict.SubSignedDataNotFound)},
		{"a manifest entry missing", func(e *ades.TimestampEntry, _ *etsi.Inputs) {
			e.DataObjects = append(e.DataObjects, ades.DataObject{Name: "annex.txt"})
		}, verdict.Indeterminate, verdict.SubSignedDataNotFound, string(verdict.SubSignedDataNotFound)},
		{"the token's signature broken", func(e *ades.TimestampEntry, _ *etsi.Inputs) {
			e.Timestamp.Value = ades.Check{Done: true, Algorithm: "RSA-SHA256", Reason: "SIGNATURE_INVALID"}
		}, verdict.Failed, verdict.SubSigCryptoFailure, string(verdict.SubSigCryptoFailure)},
		{"no TSA certificate", func(e *ades.TimestampEntry, _ *etsi.Inputs) {
			e.Timestamp.TSACertificate = nil
		}, verdict.Indeterminate, verdict.SubNoSigningCertificateFound, string(verdict.SubNoSigningCertificateFound)},
		{"a TSA certificate without id-kp-timeStamping", func(e *ades.TimestampEntry, _ *etsi.Inputs) {
			e.Timestamp.TSACertificate = p.SignerRSA.Certificate
		}, verdict.Indeterminate, verdict.SubChainConstraintsFailure, string(verdict.SubChainConstraintsFailure)},
		{"a TSA not trusted", func(e *ades.TimestampEntry, _ *etsi.Inputs) {
			u := newUntrusted(t)
			e.Timestamp.TSACertificate, e.Timestamp.Certificates = u.TSA, []*x509.Certificate{u.TSA}
		}, verdict.Indeterminate, verdict.SubNoCertificateChainFound, string(verdict.SubNoCertificateChainFound)},
		{"the TSA revoked", func(e *ades.TimestampEntry, in *etsi.Inputs) {
			in.Revocation = map[string][]revocation.Fact{}
			for _, l := range etsi.Needs(e.Evidence(), *in) {
				f := fact(l.Cert, l.Issuer, revocation.Revoked, false)
				f.RevokedAt = vt.Add(-2 * time.Hour)
				in.Revocation[etsi.Key(l.Cert)] = []revocation.Fact{f}
			}
		}, verdict.Indeterminate, verdict.SubRevokedNoPOE, string(verdict.SubRevokedNoPOE)},
		{"no revocation data", func(_ *ades.TimestampEntry, in *etsi.Inputs) {
			in.Revocation = nil
		}, verdict.Indeterminate, verdict.SubTryLater, string(verdict.SubTryLater)},
		{"generated after the validation time", func(e *ades.TimestampEntry, _ *etsi.Inputs) {
			e.Timestamp.GenTime = vt.Add(time.Hour)
		}, verdict.Indeterminate, "", etsi.CodeTimestampAfterValidationTime},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			e := entry()
			in := inputs(p)
			in.Revocation = goodFacts(e.Evidence(), in, true)
			tt.change(&e, &in)
			r := etsi.ValidateTimestamp(e, in, etsi.Policy{ValidationTime: vt})
			is.Equal(r.Indication, tt.ind)
			is.Equal(r.SubIndication, tt.sub)
			is.Equal(r.Validation.Conclusion.Indication, tt.ind)
			is.True(len(r.Validation.Checks) > 0)
			if tt.ind == verdict.Passed {
				is.Equal(len(r.Errors), 0)
				is.True(r.Path != nil)
				is.Equal(r.Path.Leaf(), p.TSA.Certificate)
				is.True(r.Validation.Valid)
				is.True(len(r.Revocation) > 0)
				return
			}
			is.Equal(codes(r.Errors), []string{tt.code})
			is.True(!r.Validation.Valid)
		})
	}
	t.Run("an invalid policy", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		r := etsi.ValidateTimestamp(entry(), inputs(p), etsi.Policy{})
		is.Equal(r.Indication, verdict.Indeterminate)
		is.Equal(r.SubIndication, verdict.SubPolicyProcessingError)
		is.Equal(codes(r.Errors), []string{etsi.CodePolicyInvalid})
	})
}
