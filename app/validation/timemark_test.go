package validation_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/asic"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
	"github.com/svc-dss/dss/fixtures/xades"
)

// TestTimeMark (issue 20, docs/decisions/0031): Estonian BDOC 2.1
// time-mark signatures through the front door, offline, with the
// fixture root as the only anchor. Signed an hour before the reference
// time, each gives what fixtures/xades expects there; validated after the
// signer expired, the time-mark alone, the OCSP response's producedAt,
// is the proof of existence that keeps it valid. A nonce that is not the
// signature value's fails the signature with TIMEMARK_NONCE_MISMATCH; a
// response about another certificate is no time-mark.
func TestTimeMark(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9") // offline: never asked
	if err != nil {
		t.Fatal(err)
	}
	signingTime := pki.ReferenceTime.Add(-time.Hour)
	producedAt := signingTime.Add(2 * time.Minute) // RevocationDataTime's default
	expired := p.SignerRSA.Certificate.NotAfter.Add(365 * 24 * time.Hour)
	content := []byte("a contract signed with a time-mark\n")
	sign := func(d xades.Defect) validation.Document {
		t.Helper()
		sig, err := xades.Sign(content, xades.Options{PKI: p, Signer: p.SignerRSA, Level: xades.LTTM, Packaging: xades.Detached,
			SigningTime: signingTime, Defect: d})
		if err != nil {
			t.Fatal(err)
		}
		return validation.Document{Name: "signature.xml", Data: sig, Detached: []validation.Part{{Name: xades.DefaultDocumentName, Data: content}}}
	}
	type want struct {
		indication verdict.Indication
		sub        verdict.SubIndication
		errors     []string
		warning    string // among the warnings
		poe        bool   // the best-signature-time is the time-mark's producedAt
	}
	passed := want{indication: verdict.TotalPassed, errors: []string{}, poe: true}
	failed := want{indication: verdict.TotalFailed, sub: verdict.SubSigConstraintsFailure, errors: []string{etsi.CodeTimeMarkNonceMismatch}}
	for _, tc := range []struct {
		defect      xades.Defect
		format      string
		atReference want
		afterExpiry want
	}{
		{xades.NoDefect, "XAdES_BASELINE_LT_TM", passed,
			want{indication: verdict.TotalPassed, errors: []string{}, warning: etsi.CodeExpiredAfterPOE, poe: true}},
		{xades.TimeMarkWrongNonce, "XAdES_BASELINE_LT_TM", failed, failed},
		{xades.TimeMarkOtherCertificate, "XAdES_BASELINE_B", want{indication: verdict.TotalPassed, errors: []string{}},
			want{indication: verdict.Indeterminate, sub: verdict.SubOutOfBoundsNoPOE, errors: []string{string(verdict.SubOutOfBoundsNoPOE)}}},
	} {
		doc := sign(tc.defect)
		for _, at := range []struct {
			name string
			time time.Time
			want want
		}{{"at the reference time", pki.ReferenceTime, tc.atReference}, {"after the signer expired", expired, tc.afterExpiry}} {
			t.Run(tc.defect.String()+"/"+at.name, func(t *testing.T) {
				t.Parallel()
				is := is.New(t)
				v := offlineValidator(t, validation.WithTime(at.time), validation.WithPrivateAnchors(p.Root.Certificate))
				res, err := v.Validate(context.Background(), doc)
				is.NoErr(err)
				_, err = catalogued(res.Summary)
				is.NoErr(err) // the messages, in the catalogue
				is.Equal(len(res.Summary.Signatures), 1)
				s := res.Summary.Signatures[0]
				if at.time.Equal(pki.ReferenceTime) {
					ind, sub := xades.Expect(tc.defect)
					is.Equal(s.Indication, ind)
					is.Equal(deref(s.SubIndication), sub)
				}
				is.Equal(s.Indication, at.want.indication)
				is.Equal(deref(s.SubIndication), at.want.sub)
				is.Equal(s.SignatureFormat, tc.format)
				var errs, warnings []string
				for _, m := range s.Errors {
					errs = append(errs, m.Code)
				}
				for _, m := range s.Warnings {
					warnings = append(warnings, m.Code)
				}
				is.Equal(append([]string{}, errs...), at.want.errors)
				if at.want.warning != "" && !slices.Contains(warnings, at.want.warning) {
					t.Errorf("warnings %v, want %s among them", warnings, at.want.warning)
				}
				// The reports are written from the same result.
				_, err = res.DetailedReport()
				is.NoErr(err)
				_, err = res.ETSIReport()
				is.NoErr(err)
				bst := res.Validation.Signatures[0].Result.BestSignatureTime
				if at.want.poe {
					is.Equal(bst, producedAt)
				} else {
					is.Equal(bst, at.time)
				}
			})
		}
	}
}

// TestTimeMarkContainer: a BDOC container, an ASiC-E holding XAdES
// time-mark signatures, reports each as XAdES_BASELINE_LT_TM in an
// ASiC-E, valid after its signer expired by its time-mark.
func TestTimeMarkContainer(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, err := pki.New("http://127.0.0.1:9") // offline: never asked
	is.NoErr(err)
	signingTime := pki.ReferenceTime.Add(-time.Hour)
	data, err := asic.Build(asic.DefaultFiles(), asic.Options{PKI: p, Signer: p.SignerRSA, Container: asic.ASiCE, Inner: asic.XAdES,
		Level: asic.LTTM, SigningTime: signingTime})
	is.NoErr(err)
	v := offlineValidator(t, validation.WithTime(p.SignerRSA.Certificate.NotAfter.Add(time.Hour)), validation.WithPrivateAnchors(p.Root.Certificate))
	res, err := v.Validate(context.Background(), validation.Document{Name: "contract.bdoc", Data: data})
	is.NoErr(err)
	_, err = catalogued(res.Summary)
	is.NoErr(err) // the messages, in the catalogue
	is.Equal(len(res.Summary.Signatures), len(asic.DefaultFiles()))
	for i, s := range res.Summary.Signatures {
		is.Equal(s.SignatureFormat, "XAdES_BASELINE_LT_TM")
		is.Equal(deref(s.Container), "ASiC-E")
		is.Equal(s.Indication, verdict.TotalPassed)
		is.Equal(res.Validation.Signatures[i].Result.BestSignatureTime, signingTime.Add(2*time.Minute))
	}
}

// TestTimeMarkListedResponder: the time-mark's OCSP response is signed by
// a responder the signer's issuer did not delegate (the root, as the
// root certified SK's responders). Validated after the signer expired,
// against the fixture lists, it proves nothing until the DE list names
// that responder as an OCSP service: then the responder answers for any
// certificate (RFC 6960, 4.2.2.2), its response is revocation data, and
// the time-mark keeps the signature valid (decision 0031).
func TestTimeMarkListedResponder(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := listFiles(t)
	signingTime := pki.ReferenceTime.Add(-time.Hour)
	content := []byte("a contract time-marked by a listed responder\n")
	sig, err := xades.Sign(content, xades.Options{PKI: f.p, Signer: f.p.SignerRSA, Level: xades.LTTM, Packaging: xades.Detached,
		SigningTime: signingTime, TimeMarkResponder: f.p.Root})
	is.NoErr(err)
	doc := validation.Document{Name: "signature.xml", Data: sig, Detached: []validation.Part{{Name: xades.DefaultDocumentName, Data: content}}}
	expired := f.p.SignerRSA.Certificate.NotAfter.Add(24 * time.Hour)
	validate := func(de string) verdict.SignatureReport {
		t.Helper()
		v, err := validation.New(context.Background(), validation.WithTrustedListFiles(f.signers, f.lotl, de, f.fr, f.ch),
			validation.WithTime(expired), validation.Offline())
		is.NoErr(err)
		res, err := v.Validate(context.Background(), doc)
		is.NoErr(err)
		_, err = catalogued(res.Summary)
		is.NoErr(err) // the messages, in the catalogue
		is.Equal(len(res.Summary.Signatures), 1)
		return res.Summary.Signatures[0]
	}
	codes := func(ms []verdict.Message) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Code)
		}
		return out
	}

	unlisted := validate(f.de)
	is.Equal(unlisted.SignatureFormat, "XAdES_BASELINE_LT_TM")
	is.Equal(unlisted.Indication, verdict.Indeterminate)
	is.True(slices.Contains(codes(unlisted.Warnings), etsi.CodeTimeMarkInvalid))

	spec := f.eco.Spec("DE")
	spec.Services = append(slices.Clone(spec.Services), tl.Service{Name: "Fixture OCSP responder", Type: tl.SvcOCSPQC,
		Certificate: f.p.Root.Certificate, StatusStart: f.p.Root.Certificate.NotBefore.UTC()})
	spec.SequenceNumber++
	is.NoErr(f.eco.Publish("DE", spec, 0))
	listed := validate(f.write(t, "DE"))
	is.Equal(listed.SignatureFormat, "XAdES_BASELINE_LT_TM")
	is.Equal(listed.Indication, verdict.TotalPassed)
	// The signer's path ends on the Swiss list (Swiss precedence): the
	// responder may be named on any list.
	is.Equal(deref(listed.AnchorCountry), "CH")
	is.True(!slices.Contains(codes(listed.Warnings), etsi.CodeTimeMarkInvalid))
	is.True(slices.Contains(codes(listed.Warnings), etsi.CodeExpiredAfterPOE))
}
