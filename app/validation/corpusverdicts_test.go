package validation_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svc-dss/dss/ports"
)

var update = flag.Bool("update", false, "rewrite the golden files of the app tests (testdata/*.golden)")

// corpusVerdictsGolden holds the verdicts of the corpus cases.
const corpusVerdictsGolden = "testdata/corpus-verdicts.golden"

// TestCorpusVerdicts pins what the validator concludes today on every
// corpus case the conformance tests validate (conformanceCases, set up
// as they are: validateCase): per signature its indication,
// sub-indication and signatureFormat, per time-stamp entry its
// indication, sub-indication and name. Any change fails the test with
// the lines that differ, whether it is a regression or an improvement;
// when it is meant, rewrite the file with
//
//	go test ./app/validation -run TestCorpusVerdicts -update
//
// and let the diff of the golden file show the change in review.
func TestCorpusVerdicts(t *testing.T) {
	cases := conformanceCases(t)
	if len(cases) == 0 {
		t.Fatal("MANIFEST.tsv lists no case of the conformance formats")
	}
	v := conformanceValidator(t)
	var b strings.Builder
	fmt.Fprintf(&b, "# Our verdicts on the real-world corpus cases (formats %s), by case ID, as the\n", strings.Join(conformanceFormats, ", "))
	b.WriteString("# conformance tests validate them. Written by go test ./app/validation -run TestCorpusVerdicts -update.\n")
	b.WriteString("# case\tsignature\tindication\tsub-indication\tsignatureFormat\n")
	b.WriteString("# case\ttime-stamp entry (T1, T2...)\tindication\tsub-indication\tname\n")
	for _, c := range cases {
		r, err := validateCase(t, v, c)
		switch {
		case errors.Is(err, ports.ErrUnreadable):
			// A document the validator refuses (400): pinned too, by
			// its kind, not its message.
			fmt.Fprintf(&b, "%s\t-\tunreadable\n", c.ID)
			continue
		case err != nil:
			t.Fatalf("%s: %v", c.ID, err)
		}
		if len(r.Summary.Signatures) == 0 {
			fmt.Fprintf(&b, "%s\t-\tno signature\n", c.ID)
		}
		for i, s := range r.Summary.Signatures {
			fmt.Fprintf(&b, "%s\t%d\t%s\t%s\t%s\n", c.ID, i+1, s.Indication, sub(s), s.SignatureFormat)
		}
		for i, e := range r.Summary.Timestamps {
			esub := "-"
			if e.SubIndication != nil {
				esub = string(*e.SubIndication)
			}
			fmt.Fprintf(&b, "%s\tT%d\t%s\t%s\t%s\n", c.ID, i+1, e.Indication, esub, e.Name)
		}
	}
	got := b.String()
	if *update {
		if err := os.MkdirAll(filepath.Dir(corpusVerdictsGolden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(corpusVerdictsGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", corpusVerdictsGolden)
		return
	}
	want, err := os.ReadFile(corpusVerdictsGolden)
	if err != nil {
		t.Fatalf("%v (go test ./app/validation -run TestCorpusVerdicts -update writes it)", err)
	}
	if d := lineDiff(string(want), got); d != "" {
		t.Errorf("the verdicts differ from %s (- golden, + now); if the change is meant, run go test ./app/validation -run TestCorpusVerdicts -update:\n%s", corpusVerdictsGolden, d)
	}
}

// lineDiff returns the lines of want missing from got ("- ") and those
// of got missing from want ("+ "), in order, by their longest common
// subsequence; "" when the two are equal.
func lineDiff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			fmt.Fprintf(&out, "- %s\n", a[i])
			i++
		default:
			fmt.Fprintf(&out, "+ %s\n", b[j])
			j++
		}
	}
	return out.String()
}
