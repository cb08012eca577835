package xades_test

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/xades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/pki"
	fxades "github.com/svc-dss/dss/fixtures/xades"
	"github.com/svc-dss/dss/ports"
)

// TestReadTimeMark: a BDOC 2.1 time-mark signature is XAdES_BASELINE_LT_TM
// with its time-mark (the OCSP response about the signer, its producedAt,
// the responder's certificate) and the check of its nonce against the
// signature value; a response about another certificate is no
// time-mark, and the signature is B.
func TestReadTimeMark(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9") // in process: never asked
	if err != nil {
		t.Fatal(err)
	}
	signingTime := time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)
	producedAt := signingTime.Add(10 * time.Minute)
	content := []byte("a contract\n")
	for _, tc := range []struct {
		defect   fxades.Defect
		form     string
		level    ades.Level
		timeMark bool
		nonce    ades.Check
	}{
		{fxades.NoDefect, "XAdES_BASELINE_LT_TM", ades.LevelLT, true, ades.Check{Done: true, Valid: true, Algorithm: "SHA256"}},
		{fxades.TimeMarkWrongNonce, "XAdES_BASELINE_LT_TM", ades.LevelLT, true, ades.Check{Done: true, Algorithm: "SHA256", Reason: xades.CodeTimeMarkNonceMismatch}},
		{fxades.TimeMarkOtherCertificate, "XAdES_BASELINE_B", ades.LevelB, false, ades.Check{}},
	} {
		t.Run(tc.defect.String(), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			signed, err := fxades.Sign(content, fxades.Options{PKI: p, Signer: p.SignerRSA, Level: fxades.LTTM, Packaging: fxades.Detached,
				SigningTime: signingTime, RevocationDataTime: producedAt, Defect: tc.defect})
			is.NoErr(err)
			sigs, err := xades.NewReader().Read(context.Background(), ports.Document{Name: "signature.xml", Data: signed,
				Detached: []ports.Detached{{Name: fxades.DefaultDocumentName, Data: content}}})
			is.NoErr(err)
			is.Equal(len(sigs), 1)
			sig := sigs[0]
			is.True(sig.Value.Done && sig.Value.Valid)
			is.Equal(sig.FormatName(), tc.form)
			is.Equal(sig.Level, tc.level)
			is.Equal(sig.PolicyID, xades.PolicyBDOCTimeMark)
			is.Equal(len(sig.Timestamps), 0)
			is.Equal(len(sig.OCSPResponses), 1)
			is.Equal(sig.TimeMark != nil, tc.timeMark)
			if !tc.timeMark {
				return
			}
			tm := sig.TimeMark
			is.Equal(tm.ProducedAt, producedAt)
			is.Equal(tm.Nonce, tc.nonce)
			is.True(len(tm.Response) > 0)
			is.Equal(len(tm.Certificates), 1)
			is.True(tm.Certificates[0].Equal(p.OCSPResponder.Certificate))
		})
	}
}
