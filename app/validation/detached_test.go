package validation_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// Issue 16: "Several detached parts: the summary says which part a
// signature covers; a part that no signature covers is named in a
// warning." A detached signature over contract.txt, uploaded with an
// annex that nothing signs: the summary names contract.txt as the
// signature's signed data and warns of annex.txt, without changing the
// verdict.
func TestValidateDetachedParts(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	content := []byte("the contract\n")
	sig := s.sign(t, content, cades.Options{Level: cades.B, Detached: true, SigningTime: signedYesterday})
	annex := validation.Part{Name: "annex.txt", Data: []byte("an annex nobody signed\n")}
	contract := validation.Part{Name: "contract.txt", Data: content}
	tests := []struct {
		name       string
		parts      []validation.Part
		signedData []string
		unsigned   []string // the parts warned of, in upload order
	}{
		{"one signed, one not", []validation.Part{annex, contract}, []string{"contract.txt"}, []string{"annex.txt"}},
		{"the signed one only", []validation.Part{contract}, []string{"contract.txt"}, nil},
		{"none signed", []validation.Part{annex}, nil, []string{"annex.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			doc := validation.Document{Name: "contract.p7s", Data: sig, Detached: tt.parts}
			sum, err := validate(s.v, doc, s.at)
			is.NoErr(err)
			is.Equal(sum.SignatureCount, 1)
			r := sum.Signatures[0]
			is.Equal(r.SignedData, tt.signedData)
			var warned []string
			for _, w := range r.Warnings {
				if w.Code == verdict.CodeDetachedPartNotSigned {
					warned = append(warned, w.Message)
				}
			}
			is.Equal(len(warned), len(tt.unsigned))
			for i, name := range tt.unsigned {
				is.True(strings.Contains(warned[i], `"`+name+`"`)) // the warning names the part
			}
			if tt.signedData != nil {
				is.Equal(r.Indication, verdict.TotalPassed) // a warning, not a downgrade
			}
			out, err := json.Marshal(sum)
			is.NoErr(err)
			is.Equal(strings.Contains(string(out), `"signedData":["contract.txt"]`), tt.signedData != nil)
		})
	}
}
