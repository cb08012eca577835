package pades_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/cades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
)

// brokenTree rewrites the page tree's root so that it does not read: a
// kid that is not a dictionary, or a chain of nodes deeper than the
// reader follows (pdf.MaxDepth).
func brokenTree(d *fixture.Document, deep bool) map[int]string {
	o := d.Objects()
	if !deep {
		return map[int]string{o.PageTree: fmt.Sprintf("<< /Type /Pages /Kids [%s 5] /Count 1 >>", fixture.Ref(o.Pages[0]))}
	}
	objs := map[int]string{}
	kid := o.Pages[0]
	for range 70 {
		n := d.Alloc()
		objs[n] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 1 >>", fixture.Ref(kid))
		kid = n
	}
	objs[o.PageTree] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 1 >>", fixture.Ref(kid))
	return objs
}

// swapContent adds to objs the page's content stream rewritten: what a
// viewer shows is no longer what was signed.
func swapContent(d *fixture.Document, objs map[int]string) map[int]string {
	objs[d.Objects().Contents[0]] = fixture.Stream("", "BT /F1 24 Tf 72 700 Td (Pay Mallory) Tj ET")
	return objs
}

// A page tree that does not read after the signed revision is a format
// failure (PDF_PAGE_TREE_UNREADABLE), not a comparison skipped with a
// warning; over the whole document it stays the warning it was.
func TestPageTreeUnreadable(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	const (
		nonDict = "pdf: page tree: pdf: types.Integer where a dictionary was expected"
		deep    = "pdf: page tree deeper than 64"
	)
	final := func(e string) string {
		return "the pages of the document as delivered do not read (" + e + "): what the signature covers cannot be compared with what is shown"
	}
	tests := []struct {
		name  string
		build func(d *fixture.Document) // after one signature
		want  ades.Problem
	}{
		{"content swapped, a kid not a dictionary", func(d *fixture.Document) {
			d.Update(swapContent(d, brokenTree(d, false)), 0)
		}, ades.Problem{Code: pades.CodePageTreeUnreadable, Message: final(nonDict)}},
		{"content swapped, the tree too deep", func(d *fixture.Document) {
			d.Update(swapContent(d, brokenTree(d, true)), 0)
		}, ades.Problem{Code: pades.CodePageTreeUnreadable, Message: final(deep)}},
		{"the tree broken in a revision after the signed one, then restored", func(d *fixture.Document) {
			o := d.Objects()
			root, err := d.Body(o.PageTree)
			must(t, err)
			d.Update(brokenTree(d, false), 0)
			d.Update(map[int]string{o.PageTree: root}, 0)
		}, ades.Problem{Code: pades.CodePageTreeUnreadable}}, // message checked below
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := fixture.New(1)
			must(t, d.Sign(fixture.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: signedAt}))
			tt.build(d)
			sigs := read(t, d.Bytes())
			if len(sigs) != 1 {
				t.Fatalf("%d signatures", len(sigs))
			}
			got := problem(sigs[0].Problems, tt.want.Code)
			if got == nil {
				t.Fatalf("no %s in %v", tt.want.Code, sigs[0].Problems)
			}
			if tt.want.Message == "" {
				if !strings.HasPrefix(got.Message, "the pages of the revision of the first ") || !strings.Contains(got.Message, nonDict) {
					t.Errorf("message %q", got.Message)
				}
			} else if got.Message != tt.want.Message {
				t.Errorf("message\n got %q\nwant %q", got.Message, tt.want.Message)
			}
		})
	}

	// The only revision is the signed one (the tree broken before
	// signing): nothing follows to compare, the warning is unchanged.
	t.Run("the signed revision is the only one", func(t *testing.T) {
		t.Parallel()
		d := fixture.New(1)
		d.Update(brokenTree(d, false), 0)
		must(t, d.Sign(fixture.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: signedAt}))
		sigs := read(t, d.Bytes())
		want := ades.Problem{Code: pades.CodeRevisionUnreadable, Message: "the pages of the document do not read: " + nonDict}
		if len(sigs) != 1 || len(sigs[0].Problems) != 1 || sigs[0].Problems[0].Code != want.Code || sigs[0].Problems[0].Message != want.Message {
			t.Fatalf("%+v, want %+v", sigs[0].Problems, want)
		}
	})
}

func problem(ps []ades.Problem, code string) *ades.Problem {
	for i := range ps {
		if ps[i].Code == code {
			return &ps[i]
		}
	}
	return nil
}
