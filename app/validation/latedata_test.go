package validation_test

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/validationtest"
)

// A signature validated at a time before its own time-stamps and
// revocation data (decision 0035), as DSS validates xades-037: the
// embedded OCSP response and CRL, issued minutes after signing, settle
// the signer's status at the earlier validation time. GOOD then means
// not revoked before; a revocation before the validation time is still
// REVOKED; one after it leaves the certificate not revoked then. The
// time-stamps, generated after the validation time, prove nothing, so
// no proof of existence rescues a revoked signer.
func TestRevocationIssuedAfterValidationTime(t *testing.T) {
	t.Parallel()
	kit := validationtest.Start(t)
	revokedSigning := pki.RevocationTime.Add(15 * 24 * time.Hour)
	tests := []struct {
		name   string
		signer *pki.Identity
		signed time.Time // zero: the kit's default
		at     time.Time
		ind    verdict.Indication
		sub    verdict.SubIndication
		qual   string // eIDAS qualification; "": not asserted
	}{
		{name: "GOOD issued two months after the validation time", at: kit.Time.Add(-61 * 24 * time.Hour),
			ind: verdict.TotalPassed, qual: "QESIG"},
		{name: "revoked before the validation time, data after it", signer: kit.PKI.Revoked, signed: revokedSigning,
			at: pki.RevocationTime.Add(time.Hour), ind: verdict.Indeterminate, sub: verdict.SubRevokedNoPOE},
		{name: "revoked after the validation time, data after the revocation", signer: kit.PKI.Revoked, signed: revokedSigning,
			at: pki.RevocationTime.Add(-time.Hour), ind: verdict.TotalPassed},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			doc := kit.CAdES(t, validationtest.Signature{Level: cades.LT, Signer: tc.signer, SigningTime: tc.signed})
			v, err := validation.New(ctx, append(kit.Options(), validation.Offline(), validation.WithTime(tc.at))...)
			is.NoErr(err)
			res, err := v.Validate(ctx, doc)
			is.NoErr(err)
			_, err = catalogued(res.Summary)
			is.NoErr(err) // the messages, in the catalogue
			is.Equal(len(res.Summary.Signatures), 1)
			s := res.Summary.Signatures[0]
			is.Equal(s.Indication, tc.ind)
			if tc.sub == "" {
				is.True(s.SubIndication == nil) // TOTAL_PASSED has none
			} else {
				is.True(s.SubIndication != nil)
				is.Equal(*s.SubIndication, tc.sub)
			}
			if tc.qual != "" {
				is.True(s.EIDASQualification != nil)
				is.Equal(*s.EIDASQualification, tc.qual)
			}
		})
	}
}
