package etsi_test

import (
	"slices"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/verdict"
)

// TestFormatFailureIsTheReaders (issue 17): whether a reader's finding
// makes the format invalid is the reader's word (ades.Problem's
// FormatFailure), whatever its code: the process lists no reader codes.
func TestFormatFailureIsTheReaders(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	tests := []struct {
		name       string
		problems   []ades.Problem
		indication verdict.Indication
		sub        verdict.SubIndication
		warnings   []string
	}{
		{"a format failure of a reader the process never heard of",
			[]ades.Problem{{Code: "SOME_READER_ENTRY_REMOVED", Message: "an entry was removed", FormatFailure: true}},
			verdict.TotalFailed, verdict.SubFormatFailure, nil},
		{"a PAdES code the reader does not call a failure is a warning",
			[]ades.Problem{{Code: "PDF_PAGES_CHANGED", Message: "pages changed"}},
			verdict.TotalPassed, "", []string{"PDF_PAGES_CHANGED"}},
		{"the first failure decides, and no finding is a warning then",
			[]ades.Problem{{Code: "A_WARNING", Message: "a"}, {Code: "FIRST", Message: "first", FormatFailure: true}, {Code: "SECOND", Message: "second", FormatFailure: true}},
			verdict.TotalFailed, verdict.SubFormatFailure, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig, in := signature(p.SignerRSA), inputs(p)
			sig.Problems = tt.problems
			in.Revocation = goodFacts(sig, in, false)
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
			is.Equal(r.Indication, tt.indication)
			is.Equal(r.SubIndication, tt.sub)
			for _, w := range tt.warnings {
				is.True(slices.Contains(codes(r.Warnings), w))
			}
			if tt.indication == verdict.TotalFailed {
				is.True(!slices.Contains(codes(r.Warnings), "A_WARNING"))
				is.Equal(len(r.Errors), 1)
				for _, pr := range tt.problems {
					if pr.FormatFailure {
						is.Equal(r.Errors[0].Message, "format failure: "+pr.Code+": "+pr.Message)
						break
					}
				}
			}
		})
	}
}
