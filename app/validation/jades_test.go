package validation_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/fixtures/pki"
)

var jadesFormats = map[jades.Level]string{jades.B: "JAdES_BASELINE_B", jades.T: "JAdES_BASELINE_T", jades.LT: "JAdES_BASELINE_LT", jades.LTA: "JAdES_BASELINE_LTA"}

// TestValidateJAdESFixtureGrid validates JAdES fixtures through the front
// door, against the fixture trusted lists at pki.ReferenceTime: every
// defect at every level it applies to, with the expectation the fixture
// states (fixtures/jades, Expect), carried to each level as for CAdES
// (TestValidateFixtureGrid); then the well-formed signature in every
// serialisation, packaging, algorithm and etsiU form.
func TestValidateJAdESFixtureGrid(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	content := []byte(`{"grid":"The JAdES grid's signed content."}`)

	type row struct {
		name string
		opts jades.Options
		// parts overrides the detached parts given (nil: the content Sign
		// returns, as jades.DefaultDocumentName).
		parts []validation.Part
		want  outcome
	}
	var rows []row
	every := []jades.Level{jades.B, jades.T, jades.LT, jades.LTA}
	for _, d := range jades.Defects() {
		for _, l := range every {
			for _, pk := range []jades.Packaging{jades.Attached, jades.SigD} {
				if !d.Applies(l, pk) {
					continue
				}
				ind, sub := jades.Expect(d, pk)
				want := failed(ind, sub, jadesFormats[l])
				switch {
				case ind == verdict.TotalPassed:
					want = passed(jadesFormats[l])
				case d == jades.WrongX5tS256:
					// ISC concludes: no path is chosen.
					want = unanchored(ind, sub, jadesFormats[l])
				}
				switch d {
				case jades.BrokenSigTst, jades.CopiedTimestamp:
					want.warnings = []string{"TIMESTAMP_INVALID"}
				case jades.BrokenArcTst:
					want.warnings = []string{"ARCHIVE_TIMESTAMP_INVALID", "LEVEL_NOT_SUPPORTED_BY_EVIDENCE"}
				}
				rows = append(rows, row{name: fmt.Sprintf("%v/%v/%v", d, l, pk), opts: jades.Options{Level: l, Packaging: pk, Defect: d}, want: want})
			}
		}
	}
	for _, l := range every {
		f := jadesFormats[l]
		rows = append(rows,
			row{name: fmt.Sprintf("general/%v", l), opts: jades.Options{Level: l, Serialization: jades.General}, want: passed(f)},
			row{name: fmt.Sprintf("detached/%v", l), opts: jades.Options{Level: l, Packaging: jades.Detached}, want: passed(f)},
			row{name: fmt.Sprintf("sigD by URI/%v", l), opts: jades.Options{Level: l, Packaging: jades.SigDByURI}, want: passed(f)},
			row{name: fmt.Sprintf("b64false/%v", l), opts: jades.Options{Level: l, Unencoded: true}, want: passed(f)},
			row{name: fmt.Sprintf("PS256/%v", l), opts: jades.Options{Level: l, Algorithm: jades.RSAPSS}, want: passed(f)},
			row{name: fmt.Sprintf("ES256/%v", l), opts: jades.Options{Level: l, Signer: s.pki.SignerECDSA}, want: passed(f)},
		)
		if l != jades.LTA {
			rows = append(rows, row{name: fmt.Sprintf("clear etsiU/%v", l), opts: jades.Options{Level: l, ClearComponents: true}, want: passed(f)})
		}
	}
	rows = append(rows,
		row{name: "compact/B", opts: jades.Options{Serialization: jades.Compact}, want: passed("JAdES_BASELINE_B")},
		row{name: "compact/b64false/B", opts: jades.Options{Serialization: jades.Compact, Unencoded: true, Packaging: jades.SigD}, want: passed("JAdES_BASELINE_B")},
		// The sigD names document.json; the two parts given are others.
		row{name: "sigD/missing part/LT", opts: jades.Options{Level: jades.LT, Packaging: jades.SigD},
			parts: []validation.Part{{Name: "a.json", Data: content}, {Name: "b.json", Data: content}},
			want:  failed(verdict.Indeterminate, verdict.SubSignedDataNotFound, "JAdES_BASELINE_LT")},
		row{name: "sigD/wrong part/B", opts: jades.Options{Packaging: jades.SigD},
			parts: []validation.Part{{Name: jades.DefaultDocumentName, Data: []byte(`{"grid":"other"}`)}},
			want:  failed(verdict.TotalFailed, verdict.SubHashFailure, "JAdES_BASELINE_B")},
	)

	for _, d := range jades.Defects() {
		if !slices.ContainsFunc(rows, func(r row) bool { return r.opts.Defect == d }) {
			t.Errorf("defect %v has no row", d)
		}
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			o := r.opts
			o.PKI = s.pki.PKI
			if o.Signer == nil {
				o.Signer = s.pki.SignerRSA
			}
			o.SigningTime = signedYesterday
			sig, detached, err := jades.Sign(content, o)
			is.NoErr(err)
			doc := validation.Document{Name: "signature.json", Data: sig}
			switch {
			case r.parts != nil:
				doc.Detached = r.parts
			case detached != nil:
				doc.Detached = []validation.Part{{Name: jades.DefaultDocumentName, Data: detached}}
			}
			sum, err := validate(s.v, doc, s.at)
			is.NoErr(err)
			is.Equal(sum.SignatureCount, 1)
			got := sum.Signatures[0]
			t.Logf("%s %s %v %s %s warnings=%v errors=%v", got.Indication, got.SignatureFormat, deref(got.SubIndication),
				got.TrustFramework, deref(got.AnchorCountry), codes(got.Warnings), codes(got.Errors))
			is.Equal(got.Indication, r.want.indication)
			is.Equal(deref(got.SubIndication), r.want.subIndication)
			is.Equal(got.SignatureFormat, r.want.format)
			is.Equal(got.TrustFramework, r.want.framework)
			is.Equal(deref(got.AnchorCountry), r.want.country)
			for _, w := range r.want.warnings {
				is.True(slices.Contains(codes(got.Warnings), w)) // expected warning present
			}
			is.Equal(sum.Valid, got.Indication == verdict.TotalPassed)
		})
	}
}
