package etsi_test

import (
	"crypto/x509"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/verdict"
)

// The survivors of mutation testing (docs/testing.md) in the process's
// policy checks, its time-stamp order and its time-stamp entries: each
// test holds one decision no earlier test made fail when it changed.

// hasCheck reports whether r holds a check named name with status s, in
// any block or in the validation with time.
func hasCheck(r etsi.Result, name string, s etsi.Status) bool {
	for _, b := range r.Blocks {
		if slices.ContainsFunc(b.Checks, func(k etsi.Check) bool { return k.Name == name && k.Status == s }) {
			return true
		}
	}
	return r.LongTerm != nil && slices.ContainsFunc(r.LongTerm.Checks, func(k etsi.Check) bool { return k.Name == name && k.Status == s })
}

// TestPolicyAcceptedEmpty: a list of accepted values left empty accepts
// any: no signature level is refused (policychecks.go, the level check
// runs only with a list), and any commitment type is, though one is
// still required.
func TestPolicyAcceptedEmpty(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	const levelCheck = "Is the signature's level one the validation policy accepts?"
	const commitmentCheck = "Does the signature carry a commitment type the validation policy accepts?"
	tests := []struct {
		name        string
		cons        etsi.Constraints
		commitments []string
		ind         verdict.Indication
		check       string
		status      etsi.Status
		absent      bool // the check is not made at all
	}{
		{"levels at FAIL, none listed", etsi.Constraints{SignatureLevels: etsi.Accepted[ades.Level]{Level: etsi.LevelFail}},
			nil, verdict.TotalPassed, levelCheck, etsi.NotOK, true},
		{"commitment types at FAIL, none listed, one carried", etsi.Constraints{CommitmentTypes: etsi.Accepted[string]{Level: etsi.LevelFail}},
			[]string{"1.2.840.113549.1.9.16.6.2"}, verdict.TotalPassed, commitmentCheck, etsi.OK, false},
		{"commitment types at FAIL, none listed, none carried", etsi.Constraints{CommitmentTypes: etsi.Accepted[string]{Level: etsi.LevelFail}},
			nil, verdict.Indeterminate, commitmentCheck, etsi.NotOK, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig, in := signature(p.SignerRSA), inputs(p)
			sig.CommitmentTypes = tt.commitments
			in.Revocation = goodFacts(sig, in, false)
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt, Constraints: tt.cons})
			is.Equal(r.Indication, tt.ind)
			if tt.absent {
				for _, s := range []etsi.Status{etsi.OK, etsi.NotOK, etsi.Warning, etsi.Information} {
					is.True(!hasCheck(r, tt.check, s))
				}
				return
			}
			is.True(hasCheck(r, tt.check, tt.status))
		})
	}
}

// TestTimestampOrderReport: the order check is reported only where there
// is an order to check, two time-stamps or more, and a disorder names
// the two time-stamps by their place in the document, counted from 1.
func TestTimestampOrderReport(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	const name = "Are the time-stamps in order (content, signature, validation-data, archive)?"
	at := func(typ ades.TimestampType, d time.Duration) ades.Timestamp {
		return timestamp(typ, vt.Add(-24*time.Hour+d), p.TSA.Certificate)
	}
	validate := func(tss ...ades.Timestamp) etsi.Result {
		sig := signature(p.SignerRSA)
		sig.Level = ades.LevelT
		sig.Timestamps = tss
		sig.ClaimedSigningTime = vt.Add(-25 * time.Hour)
		in := inputs(p)
		in.Revocation = goodFacts(sig, in, false)
		return etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
	}
	t.Run("one time-stamp: no order check", func(t *testing.T) {
		is := is.New(t)
		r := validate(at(ades.SignatureTimestamp, 0))
		is.Equal(r.Indication, verdict.TotalPassed)
		is.True(!hasCheck(r, name, etsi.OK))
	})
	t.Run("two in order: checked", func(t *testing.T) {
		is := is.New(t)
		r := validate(at(ades.SignatureTimestamp, 0), at(ades.ArchiveTimestamp, time.Minute))
		is.Equal(r.Indication, verdict.TotalPassed)
		is.True(hasCheck(r, name, etsi.OK))
	})
	t.Run("a disorder names both by place", func(t *testing.T) {
		is := is.New(t)
		// The third (archive) was generated before the second
		// (signature): the first is a content time-stamp in order.
		r := validate(at(ades.ContentTimestamp, 0), at(ades.SignatureTimestamp, 2*time.Minute), at(ades.ArchiveTimestamp, time.Minute))
		is.Equal(r.SubIndication, verdict.SubTimestampOrderFailure)
		is.True(len(r.Errors) == 1)
		msg := r.Errors[0].Message
		t.Log(msg)
		is.True(strings.Contains(msg, " 3, generated at "))               // the archive time-stamp, third
		is.True(strings.Contains(msg, "precedes signature time-stamp 2")) // the signature time-stamp, second
	})
}

// TestValidateTimestampEntryEdges: an entry's time-stamp is protected by
// no archive time-stamp (ProtectedBy -1, as the reports read it), and a
// plan that is not the entry's own (one made for a signature without
// time-stamps) is replaced by the entry's, not used.
func TestValidateTimestampEntryEdges(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	e := ades.TimestampEntry{
		ID: "T-1", Name: "contract.tst", Timestamp: timestamp(ades.ContentTimestamp, vt.Add(-24*time.Hour), p.TSA.Certificate),
		DataObjects: []ades.DataObject{{Name: "contract.txt", Found: true, Intact: true, DigestAlgorithm: "SHA-256"}},
	}
	t.Run("not protected", func(t *testing.T) {
		is := is.New(t)
		in := inputs(p)
		in.Revocation = goodFacts(e.Evidence(), in, true)
		r := etsi.ValidateTimestamp(e, in, etsi.Policy{ValidationTime: vt})
		is.Equal(r.Indication, verdict.Passed)
		is.Equal(r.Validation.ProtectedBy, -1)
	})
	t.Run("another's plan", func(t *testing.T) {
		is := is.New(t)
		in := inputs(p)
		in.Revocation = goodFacts(e.Evidence(), in, true)
		in.Plan = etsi.NewPlan(signature(p.SignerRSA), in) // no time-stamp in it
		r := etsi.ValidateTimestamp(e, in, etsi.Policy{ValidationTime: vt})
		is.Equal(r.Indication, verdict.Passed)
		is.True(r.Path != nil)
		is.Equal(r.Path.Leaf(), p.TSA.Certificate)
	})
}

// TestSignaturePolicyNotProcessed: a signature that names a signature
// policy is told, as information, that the policy was not processed;
// one that names none is not.
func TestSignaturePolicyNotProcessed(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	const name = "Is the signature policy applied?"
	for _, id := range []string{"", "2.16.756.5.30.1.1"} {
		t.Run("policy "+id, func(t *testing.T) {
			is := is.New(t)
			sig, in := signature(p.SignerRSA), inputs(p)
			sig.PolicyID = id
			in.Revocation = goodFacts(sig, in, false)
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
			is.Equal(r.Indication, verdict.TotalPassed)
			is.Equal(hasCheck(r, name, etsi.Information), id != "")
		})
	}
}

// TestXCVBlockErrors: the XCV block of a signature whose chain fails
// carries the error it concludes with; a passing block carries none.
func TestXCVBlockErrors(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	for _, revoked := range []bool{false, true} {
		t.Run(fmt.Sprint("revoked ", revoked), func(t *testing.T) {
			is := is.New(t)
			sig, in := signature(p.SignerRSA), inputs(p)
			in.Revocation = goodFacts(sig, in, false)
			if revoked {
				in.Revocation = revokedFacts(sig, in, p.SignerRSA.Certificate, vt.Add(-2*time.Hour))
			}
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
			i := slices.IndexFunc(r.Blocks, func(b etsi.Block) bool { return b.Name == etsi.XCV })
			is.True(i >= 0)
			xcv := r.Blocks[i]
			if !revoked {
				is.Equal(r.Indication, verdict.TotalPassed)
				is.Equal(len(xcv.Conclusion.Errors), 0)
				return
			}
			is.Equal(xcv.Conclusion.SubIndication, verdict.SubRevokedNoPOE)
			is.Equal(codes(xcv.Conclusion.Errors), []string{string(verdict.SubRevokedNoPOE)})
		})
	}
}

// TestNoPathLocated: a signature that fails before XCV and whose signer
// chains to no anchor reports no path, and does not stumble on the empty
// list of paths.
func TestNoPathLocated(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	u := newUntrusted(t)
	sig := signature(p.SignerRSA)
	sig.SigningCertificate, sig.Certificates = u.Signer, []*x509.Certificate{u.Signer, u.Root}
	sig.Value.Valid, sig.Value.Reason = false, "SIGNATURE_INVALID"
	r := etsi.Validate(sig, inputs(p), etsi.Policy{ValidationTime: vt})
	is.Equal(r.Indication, verdict.TotalFailed)
	is.Equal(r.SubIndication, verdict.SubSigCryptoFailure)
	is.True(r.Path == nil)
}
