package pades_test

import (
	"fmt"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/cades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
)

// Bytes after the last revision's %%EOF that are not white space (NUL
// included) give PDF_UNSIGNED_TRAILING_CONTENT on every signature,
// naming their size.
func TestUnsignedTrailingContent(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	const object = "9 0 obj\n<< /Type /Page >>\nendobj\n"
	tests := []struct {
		name     string
		appended string
		want     bool
	}{
		{"nothing", "", false},
		{"white space and NUL padding", " \x00\x00\x00\r\n\t\f", false},
		{"an object", object, true},
		{"an object and an %%EOF", object + "%%EOF\n", true},
		{"an object, an xref section no startxref reaches", object + "xref\n9 1\n0000000000 00000 n \ntrailer\n<< >>\n%%EOF\n", true},
		{"text", "garbage", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := fixture.New(1)
			must(t, d.Sign(fixture.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: signedAt}))
			must(t, d.Sign(fixture.Options{PKI: p, Signer: p.SignerECDSA, Level: cades.B, SigningTime: signedAt}))
			end := len(d.Bytes())
			d.Append([]byte(tt.appended))
			sigs := read(t, d.Bytes())
			if len(sigs) != 2 {
				t.Fatalf("%d signatures", len(sigs))
			}
			want := ades.Problem{Code: pades.CodeUnsignedTrailingContent, Message: fmt.Sprintf(
				"%d bytes follow the last revision (after its %%%%EOF at byte %d) in no cross-reference section: content no signature covers, which some viewers show", len(tt.appended), end)}
			for i, s := range sigs {
				got := problem(s.Problems, want.Code)
				switch {
				case !tt.want && got != nil:
					t.Errorf("signature %d: %+v", i, *got)
				case tt.want && (got == nil || got.Code != want.Code || got.Message != want.Message || got.FormatFailure):
					t.Errorf("signature %d: %+v, want %+v", i, s.Problems, want)
				}
			}
		})
	}
}
