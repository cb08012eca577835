package validation_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
)

// TestValidateUnusableEmbeddedRevocation validates CAdES LT signatures
// whose embedded revocation data cannot serve at the validation time
// (issue 16, "Signatures that must not pass"): stale and older than the
// signature's proof of existence, about other certificates; and, for
// contrast, data produced after the validation time, which serves
// (decision 0035). With the fixture OCSP responder and CRL
// distribution points reachable, the validator fetches fresh data: a
// valid signer passes and a signer revoked before the proof of existence
// is REVOKED_NO_POE. With them unreachable (the egress guard refuses
// loopback) nothing usable can be had and the outcome is TRY_LATER,
// unless the embedded data with the proof of existence suffices.
func TestValidateUnusableEmbeddedRevocation(t *testing.T) {
	t.Parallel()
	at := pki.ReferenceTime
	// Branches puts the EU CA on the DE list: its signer is anchored.
	online := newValidationWith(t, at, tl.EcosystemOptions{Branches: true})
	unreachable := newValidationWith(t, at, tl.EcosystemOptions{Branches: true}, "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=true")
	content := []byte("Signed with revocation data that cannot serve.\n")

	// signedLastMonth's embedded data (OCSP 12 h, CRLs 24 h) is stale at
	// the validation time.
	signedLastMonth := at.AddDate(0, -1, 0)
	const (
		passed   = verdict.TotalPassed
		indet    = verdict.Indeterminate
		tryLater = verdict.SubTryLater
	)
	type want struct {
		indication verdict.Indication
		sub        verdict.SubIndication
	}
	tests := []struct {
		name string
		// opts gets the PKI of the validation it is signed for.
		opts func(p *pki.PKI) cades.Options
		// online is the outcome with the fetch reachable, unreachable
		// without it; fetched says the signer's report holds data
		// fetched about the signing certificate.
		online, unreachable want
		fetched             bool
	}{
		{
			// Gathered an hour before the signature's time-stamp: stale
			// now and too old to show the signer unrevoked at the proof
			// of existence. Was INDETERMINATE/TRY_LATER.
			name: "stale, before the proof of existence",
			opts: func(p *pki.PKI) cades.Options {
				return cades.Options{Level: cades.LT, SigningTime: signedLastMonth, RevocationDataTime: signedLastMonth.Add(-time.Hour)}
			},
			online: want{passed, ""}, unreachable: want{indet, tryLater}, fetched: true,
		},
		{
			// Stale but after the time-stamp: past signature validation
			// relies on it when nothing fresher can be had.
			name: "stale, after the proof of existence",
			opts: func(p *pki.PKI) cades.Options {
				return cades.Options{Level: cades.LT, SigningTime: signedLastMonth}
			},
			online: want{passed, ""}, unreachable: want{passed, ""}, fetched: true,
		},
		{
			// Produced a day after the validation time: GOOD then is
			// GOOD at the validation time (0035), nothing is fetched.
			name: "produced after the validation time",
			opts: func(p *pki.PKI) cades.Options {
				return cades.Options{Level: cades.LT, SigningTime: signedYesterday, RevocationDataTime: at.Add(24 * time.Hour)}
			},
			online: want{passed, ""}, unreachable: want{passed, ""}, fetched: false,
		},
		{
			// Fresh, but about another signer and another CA (an OCSP
			// response and CRLs of the intermediate's path for the EU
			// CA's signer): the adapter makes no fact of it, so this
			// passed before too.
			name: "about other certificates",
			opts: func(p *pki.PKI) cades.Options {
				return cades.Options{Level: cades.LT, Signer: p.SignerEUQES, Algorithm: cades.ECDSA, SigningTime: signedYesterday, RevocationDataOf: p.SignerECDSA}
			},
			online: want{passed, ""}, unreachable: want{indet, tryLater}, fetched: true,
		},
		{
			// Revoked signer signing after its revocation, embedding GOOD
			// data from before it. Was INDETERMINATE/TRY_LATER.
			name: "revoked signer, data older than the revocation",
			opts: func(p *pki.PKI) cades.Options {
				return cades.Options{Level: cades.LT, Defect: cades.RevokedSigner, SigningTime: signedYesterday, RevocationDataTime: pki.RevocationTime.Add(-24 * time.Hour)}
			},
			online: want{indet, verdict.SubRevokedNoPOE}, unreachable: want{indet, tryLater}, fetched: true,
		},
		{
			// The embedded data, from after the validation time, says
			// REVOKED before it: REVOKED whether or not more could be
			// fetched (0035).
			name: "revoked signer, data produced after the validation time",
			opts: func(p *pki.PKI) cades.Options {
				return cades.Options{Level: cades.LT, Defect: cades.RevokedSigner, SigningTime: signedYesterday, RevocationDataTime: at.Add(24 * time.Hour)}
			},
			online: want{indet, verdict.SubRevokedNoPOE}, unreachable: want{indet, verdict.SubRevokedNoPOE}, fetched: false,
		},
		{
			// Data that serves stops the search: nothing fetched.
			name: "fresh",
			opts: func(p *pki.PKI) cades.Options {
				return cades.Options{Level: cades.LT, SigningTime: signedYesterday}
			},
			online: want{passed, ""}, unreachable: want{passed, ""}, fetched: false,
		},
	}
	for _, tc := range tests {
		for _, side := range []struct {
			name string
			s    *pkiWorld
			want want
		}{{"online", online, tc.online}, {"unreachable", unreachable, tc.unreachable}} {
			t.Run(tc.name+"/"+side.name, func(t *testing.T) {
				t.Parallel()
				is := is.New(t)
				o := tc.opts(side.s.pki.PKI)
				sig := side.s.sign(t, content, o)
				r, err := validateReport(side.s.v, document(sig, content, false), at)
				is.NoErr(err)
				is.Equal(r.Summary.SignatureCount, 1)
				got := r.Summary.Signatures[0]
				t.Logf("%s %v errors=%v warnings=%v", got.Indication, deref(got.SubIndication), codes(got.Errors), codes(got.Warnings))
				is.Equal(got.Indication, side.want.indication)    // indication
				is.Equal(deref(got.SubIndication), side.want.sub) // subIndication ("" is null)

				signer := r.Signatures[0].Evidence.SigningCertificate
				fetched := false
				for _, f := range r.Signatures[0].Result.Revocation {
					if !f.Embedded && f.Certificate != nil && bytes.Equal(f.Certificate.Raw, signer.Raw) {
						fetched = true
					}
				}
				is.Equal(fetched, tc.fetched && side.s == online) // data fetched about the signer relied on
			})
		}
	}
}
