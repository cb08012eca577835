package pades_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/cades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/ports"
)

func read(t *testing.T, data []byte) []ades.Signature {
	t.Helper()
	sigs, err := pades.NewReader().Read(context.Background(), ports.Document{Name: "doc.pdf", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	formatFailures(t, sigs)
	return sigs
}

// formatFailures checks, on every signature a test reads, that the
// reader marks as format failures (ades.Problem.FormatFailure) the
// findings of these codes, wherever it makes them, and no other: the
// process no longer knows the codes (issue 17).
func formatFailures(t *testing.T, sigs []ades.Signature) {
	t.Helper()
	failures := []string{pades.CodeByteRangeInvalid, pades.CodePagesChanged, pades.CodePageContentChanged, pades.CodePageTreeUnreadable, pades.CodeShownAnnotationsChanged}
	for _, s := range sigs {
		for _, p := range s.Problems {
			if p.FormatFailure != slices.Contains(failures, p.Code) {
				t.Errorf("signature %s: %s: FormatFailure %t", s.ID, p.Code, p.FormatFailure)
			}
		}
		formatFailures(t, s.CounterSignatures)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func codes(ps []ades.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Code)
	}
	return out
}

// sound reports whether a signature's content and value check out.
func sound(s ades.Signature) bool {
	return len(s.DataObjects) == 1 && s.DataObjects[0].Found && s.DataObjects[0].Intact && s.Value.Valid
}

func TestRead(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	sign := func(d *fixture.Document, o fixture.Options, i int) {
		t.Helper()
		o.PKI = p
		if o.Signer == nil {
			o.Signer = p.SignerRSA
		}
		o.SigningTime = signedAt.Add(time.Duration(i) * time.Hour)
		if err := d.Sign(o); err != nil {
			t.Fatal(err)
		}
	}
	dss := func(d *fixture.Document, at time.Time) {
		t.Helper()
		if err := d.AddDSS(fixture.DSSOptions{PKI: p, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	stamp := func(d *fixture.Document, at time.Time) {
		t.Helper()
		if err := d.AddDocumentTimestamp(fixture.TimestampOptions{PKI: p, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name     string
		build    func(d *fixture.Document)
		formats  []string // signatureFormat of each signature, in field order
		sound    []bool
		problems [][]string // problem codes of each signature
		stamps   []int      // time-stamps of each signature
	}{
		{"B", func(d *fixture.Document) { sign(d, fixture.Options{Level: cades.B}, 0) },
			[]string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{nil}, []int{0}},
		{"T", func(d *fixture.Document) { sign(d, fixture.Options{Level: cades.T}, 0) },
			[]string{"PAdES_BASELINE_T"}, []bool{true}, [][]string{nil}, []int{1}},
		{"T by a document time-stamp", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B}, 0)
			stamp(d, signedAt.Add(time.Hour))
		}, []string{"PAdES_BASELINE_T"}, []bool{true}, [][]string{nil}, []int{1}},
		{"LT", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.T}, 0)
			dss(d, signedAt.Add(time.Hour))
		}, []string{"PAdES_BASELINE_LT"}, []bool{true}, [][]string{nil}, []int{1}},
		{"LTA", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.T}, 0)
			dss(d, signedAt.Add(time.Hour))
			stamp(d, signedAt.Add(2*time.Hour))
		}, []string{"PAdES_BASELINE_LTA"}, []bool{true}, [][]string{nil}, []int{2}},
		{"a time-stamp only after the DSS gives T (as DSS)", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B}, 0)
			dss(d, signedAt.Add(time.Hour))
			stamp(d, signedAt.Add(2*time.Hour))
		}, []string{"PAdES_BASELINE_T"}, []bool{true}, [][]string{nil}, []int{1}},
		{"a DSS without a time-stamp before it is not LT", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B}, 0)
			dss(d, signedAt.Add(time.Hour))
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{nil}, []int{0}},
		{"three signatures", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B, CertifyPermissions: 2}, 0)
			sign(d, fixture.Options{Level: cades.T, Signer: p.SignerECDSA}, 1)
			sign(d, fixture.Options{Level: cades.B}, 2)
		}, []string{"PAdES_BASELINE_B", "PAdES_BASELINE_T", "PAdES_BASELINE_B"}, []bool{true, true, true}, [][]string{nil, nil, nil}, []int{0, 1, 0}},
		{"adbe.pkcs7.detached", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B, SubFilter: fixture.SubFilterPKCS7}, 0)
		},
			[]string{"PKCS7_B"}, []bool{true}, [][]string{nil}, []int{0}},
		// adbe.pkcs7.detached has no signing-certificate reference (as
		// Adobe's): its levels follow the structure as PAdES's do (DSS:
		// PKCS7_T, PKCS7_LT, PKCS7_LTA).
		{"adbe.pkcs7.detached with a signature time-stamp", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.T, SubFilter: fixture.SubFilterPKCS7}, 0)
		}, []string{"PKCS7_T"}, []bool{true}, [][]string{nil}, []int{1}},
		{"adbe.pkcs7.detached, T by a document time-stamp", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B, SubFilter: fixture.SubFilterPKCS7}, 0)
			stamp(d, signedAt.Add(time.Hour))
		}, []string{"PKCS7_T"}, []bool{true}, [][]string{nil}, []int{1}},
		{"adbe.pkcs7.detached LT", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.T, SubFilter: fixture.SubFilterPKCS7}, 0)
			dss(d, signedAt.Add(time.Hour))
		}, []string{"PKCS7_LT"}, []bool{true}, [][]string{nil}, []int{1}},
		{"adbe.pkcs7.detached LTA", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.T, SubFilter: fixture.SubFilterPKCS7}, 0)
			dss(d, signedAt.Add(time.Hour))
			stamp(d, signedAt.Add(2*time.Hour))
		}, []string{"PKCS7_LTA"}, []bool{true}, [][]string{nil}, []int{2}},
		{"adbe.pkcs7.detached: a DSS without a time-stamp before it is not LT", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B, SubFilter: fixture.SubFilterPKCS7}, 0)
			dss(d, signedAt.Add(time.Hour))
		}, []string{"PKCS7_B"}, []bool{true}, [][]string{nil}, []int{0}},
		{"certified, no changes permitted, then signed again", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B, CertifyPermissions: 1}, 0)
			sign(d, fixture.Options{Level: cades.B}, 1)
		}, []string{"PAdES_BASELINE_B", "PAdES_BASELINE_B"}, []bool{true, true}, [][]string{{pades.CodeDocMDPViolated}, nil}, []int{0, 0}},
		{"certified, signing permitted, then signed again", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B, CertifyPermissions: 2}, 0)
			sign(d, fixture.Options{Level: cades.B}, 1)
		}, []string{"PAdES_BASELINE_B", "PAdES_BASELINE_B"}, []bool{true, true}, [][]string{nil, nil}, []int{0, 0}},
		{"certified, no changes permitted, then DSS and a document time-stamp (always allowed)", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.T, CertifyPermissions: 1}, 0)
			dss(d, signedAt.Add(time.Hour))
			stamp(d, signedAt.Add(2*time.Hour))
		}, []string{"PAdES_BASELINE_LTA"}, []bool{true}, [][]string{nil}, []int{2}},
		{"page added after signing", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B}, 0)
			d.AddPage()
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodePagesChanged}}, []int{0}},
		{"form filled after signing", func(d *fixture.Document) {
			d.AddTextField("name", "Alice")
			sign(d, fixture.Options{Level: cades.B}, 0)
			must(t, d.FillTextField("name", "Mallory"))
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodeFormFieldsChanged}}, []int{0}},
		{"a field the signature locked filled after it", func(d *fixture.Document) {
			d.AddTextField("name", "Alice")
			d.AddTextField("note", "")
			sign(d, fixture.Options{Level: cades.B, LockFields: []string{"name"}}, 0)
			must(t, d.FillTextField("name", "Mallory"))
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodeFormFieldsChanged, pades.CodeFieldMDPViolated}}, []int{0}},
		{"a field the signature did not lock filled after it", func(d *fixture.Document) {
			d.AddTextField("name", "Alice")
			d.AddTextField("note", "")
			sign(d, fixture.Options{Level: cades.B, LockFields: []string{"name"}}, 0)
			must(t, d.FillTextField("note", "seen"))
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodeFormFieldsChanged}}, []int{0}},
		{"certified, no changes permitted, then form filled", func(d *fixture.Document) {
			d.AddTextField("name", "Alice")
			sign(d, fixture.Options{Level: cades.B, CertifyPermissions: 1}, 0)
			must(t, d.FillTextField("name", "Mallory"))
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodeFormFieldsChanged, pades.CodeDocMDPViolated}}, []int{0}},
		{"certified, form filling permitted, then form filled", func(d *fixture.Document) {
			d.AddTextField("name", "Alice")
			sign(d, fixture.Options{Level: cades.B, CertifyPermissions: 2}, 0)
			must(t, d.FillTextField("name", "Bob"))
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodeFormFieldsChanged}}, []int{0}},
		{"annotation added after signing", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B}, 0)
			d.AddAnnotation()
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodeShownAnnotationsChanged}}, []int{0}},
		{"certified, form filling permitted, then annotation added", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B, CertifyPermissions: 2}, 0)
			d.AddAnnotation()
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodeShownAnnotationsChanged, pades.CodeDocMDPViolated}}, []int{0}},
		{"certified, annotations permitted, then annotation added", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B, CertifyPermissions: 3}, 0)
			d.AddAnnotation()
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodeAnnotationsChanged}}, []int{0}},
		{"annotation changed after signing", func(d *fixture.Document) {
			d.AddAnnotation()
			sign(d, fixture.Options{Level: cades.B}, 0)
			must(t, d.ChangeAnnotation())
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodeShownAnnotationsChanged}}, []int{0}},
		{"font replaced after signing (shadow attack)", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B}, 0)
			d.ReplaceFont("Courier")
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodePageContentChanged}}, []int{0}},
		{"script added to the catalog after signing", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B}, 0)
			d.AddOpenAction()
		}, []string{"PAdES_BASELINE_B"}, []bool{true}, [][]string{{pades.CodeObjectsChanged}}, []int{0}},
		{"a form and an annotation, signed twice, then DSS and a document time-stamp: nothing to report", func(d *fixture.Document) {
			d.AddTextField("name", "Alice")
			d.AddAnnotation()
			sign(d, fixture.Options{Level: cades.T, CertifyPermissions: 1}, 0)
			dss(d, signedAt.Add(time.Hour))
			stamp(d, signedAt.Add(2*time.Hour))
		}, []string{"PAdES_BASELINE_LTA"}, []bool{true}, [][]string{nil}, []int{2}},
		{"LT data referenced from /VRI alone", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.T}, 0)
			must(t, d.AddDSS(fixture.DSSOptions{PKI: p, At: signedAt.Add(time.Hour), VRIOnly: true}))
		}, []string{"PAdES_BASELINE_LT"}, []bool{true}, [][]string{nil}, []int{1}},
		{"LT data taken out of the store by a later update (an earlier revision holds it)", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.T}, 0)
			dss(d, signedAt.Add(time.Hour))
			must(t, d.EmptyDSS())
		}, []string{"PAdES_BASELINE_LT"}, []bool{true}, [][]string{nil}, []int{1}},
		{"overlapping byte range", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B, Defect: fixture.OverlappingByteRange}, 0)
		},
			[]string{"PAdES_BASELINE_B"}, []bool{false}, [][]string{{pades.CodeByteRangeInvalid}}, []int{0}},
		{"foreign /Contents", func(d *fixture.Document) {
			sign(d, fixture.Options{Level: cades.B}, 0)
			sign(d, fixture.Options{Level: cades.B, Defect: fixture.ForeignContents}, 1)
		}, []string{"PAdES_BASELINE_B", "PAdES_BASELINE_B"}, []bool{true, false}, [][]string{nil, nil}, []int{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			d := fixture.New(1)
			tt.build(d)
			sigs := read(t, d.Bytes())
			is.Equal(len(sigs), len(tt.formats))
			for i, s := range sigs {
				is.Equal(ades.SignatureFormat(s.Format, s.Level), tt.formats[i])
				is.Equal(sound(s), tt.sound[i])
				is.Equal(codes(s.Problems), tt.problems[i])
				is.Equal(len(s.Timestamps), tt.stamps[i])
				is.True(!s.ClaimedSigningTime.IsZero()) // from /M
			}
		})
	}

	t.Run("a byte changed in the signed range", func(t *testing.T) {
		is := is.New(t)
		d := fixture.New(1)
		sign(d, fixture.Options{Level: cades.B}, 0)
		tampered, err := fixture.TamperSignedByte(d.Bytes())
		is.NoErr(err)
		s := read(t, tampered)[0]
		is.True(s.DataObjects[0].Found && !s.DataObjects[0].Intact) // HASH_FAILURE for the process
	})

	t.Run("every document time-stamp after the first LT store is an archive time-stamp", func(t *testing.T) {
		is := is.New(t)
		d := fixture.New(1)
		sign(d, fixture.Options{Level: cades.T}, 0)
		dss(d, signedAt.Add(time.Hour))
		stamp(d, signedAt.Add(2*time.Hour))
		dss(d, signedAt.Add(3*time.Hour))
		stamp(d, signedAt.Add(4*time.Hour))
		s := read(t, d.Bytes())[0]
		is.Equal(ades.SignatureFormat(s.Format, s.Level), "PAdES_BASELINE_LTA")
		var types []ades.TimestampType
		var documents []bool
		for _, ts := range s.Timestamps {
			types = append(types, ts.Type)
			documents = append(documents, ts.Document)
		}
		is.Equal(types, []ades.TimestampType{ades.SignatureTimestamp, ades.ArchiveTimestamp, ades.ArchiveTimestamp})
		is.Equal(documents, []bool{false, true, true}) // the CMS's time-stamp, then the document's
	})

	t.Run("a document time-stamp over a B signature is its T-level time-stamp, and a document time-stamp", func(t *testing.T) {
		is := is.New(t)
		d := fixture.New(1)
		sign(d, fixture.Options{Level: cades.B}, 0)
		stamp(d, signedAt.Add(time.Hour))
		s := read(t, d.Bytes())[0]
		is.Equal(len(s.Timestamps), 1)
		is.Equal(s.Timestamps[0].Type, ades.SignatureTimestamp)
		is.True(s.Timestamps[0].Document)
	})

	t.Run("each signature is placed: field, revision of how many, claims", func(t *testing.T) {
		is := is.New(t)
		d := fixture.New(1)
		sign(d, fixture.Options{Level: cades.B, Reason: "approved"}, 0)
		sign(d, fixture.Options{Level: cades.B}, 1)
		dss(d, signedAt.Add(2*time.Hour))
		sigs := read(t, d.Bytes())
		is.Equal(*sigs[0].Placement, ades.Placement{Kind: ades.PDFField, Name: "Signature1", Reason: "approved", Revision: 2, Revisions: 4})
		is.Equal(*sigs[1].Placement, ades.Placement{Kind: ades.PDFField, Name: "Signature2", Revision: 3, Revisions: 4})
		d = fixture.New(1)
		sign(d, fixture.Options{Level: cades.B}, 0)
		is.Equal(*read(t, d.Bytes())[0].Placement, ades.Placement{Kind: ades.PDFField, Name: "Signature1", Revision: 2, Revisions: 2, CoversWholeDocument: true})
	})

	t.Run("a placement says what changed after its revision", func(t *testing.T) {
		is := is.New(t)
		d := fixture.New(1)
		d.AddTextField("name", "")
		sign(d, fixture.Options{Level: cades.B}, 0)
		is.NoErr(d.FillTextField("name", "Maria Muster"))
		s := read(t, d.Bytes())[0]
		is.Equal(s.Placement.Revision, 3)
		is.Equal(s.Placement.Revisions, 4)
		is.Equal(len(s.Placement.Changes), 1)
		is.True(strings.HasPrefix(s.Placement.Changes[0], "form fields were filled in or changed after signing")) // as the problem says
		is.True(slices.ContainsFunc(s.Problems, func(p ades.Problem) bool { return p.Message == s.Placement.Changes[0] }))
	})

	t.Run("LTA data reach the evidence", func(t *testing.T) {
		is := is.New(t)
		d := fixture.New(1)
		sign(d, fixture.Options{Level: cades.T}, 0)
		dss(d, signedAt.Add(time.Hour))
		stamp(d, signedAt.Add(2*time.Hour))
		s := read(t, d.Bytes())[0]
		is.True(len(s.CRLs) > 0 && len(s.OCSPResponses) > 0)
		i := slices.IndexFunc(s.Timestamps, func(ts ades.Timestamp) bool { return ts.Type == ades.ArchiveTimestamp })
		is.True(i >= 0)
		is.True(s.Timestamps[i].Imprint.Valid && s.Timestamps[i].Value.Valid)
	})
}

func TestReadWithoutSignatures(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	sigs, err := pades.NewReader().Read(context.Background(), ports.Document{Name: "plain.pdf", Data: fixture.New(2).Bytes()})
	is.NoErr(err)
	is.Equal(len(sigs), 0)
}

func TestReadRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		data []byte
		err  error
	}{
		{"not a PDF", []byte("hello, world"), ports.ErrNotThisFormat},
		{"a PDF header and nothing else", []byte("%PDF-1.7\n%%EOF\n"), ports.ErrUnreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := pades.NewReader().Read(context.Background(), ports.Document{Name: "x.pdf", Data: tt.data})
			is.True(errors.Is(err, tt.err))
		})
	}
}
