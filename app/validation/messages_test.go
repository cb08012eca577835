package validation_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// TestCorpusMessagesInTheCatalogue: every error and warning the
// validator gives on the real-world corpus (the cases TestCorpusVerdicts
// pins) has its template in the catalogue, whose English renders the
// very sentence the domain wrote, and which renders in German, French
// and Italian with every parameter filled.
func TestCorpusMessagesInTheCatalogue(t *testing.T) {
	cases := conformanceCases(t)
	if len(cases) == 0 {
		t.Fatal("MANIFEST.tsv lists no case of the conformance formats")
	}
	c, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	v := conformanceValidator(t)
	seen := map[string]bool{}
	for _, cs := range cases {
		r, err := validateCase(t, v, cs)
		if errors.Is(err, ports.ErrUnreadable) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", cs.ID, err)
		}
		var ms []verdict.Message
		for _, s := range r.Summary.Signatures {
			ms = append(append(ms, s.Errors...), s.Warnings...)
		}
		for _, e := range r.Summary.Timestamps {
			ms = append(append(ms, e.Errors...), e.Warnings...)
		}
		for _, m := range ms {
			seen[m.TemplateID()] = true
			en, err := c.Render(catalog.English, m)
			if err != nil {
				t.Errorf("%s: %s: %v", cs.ID, m.TemplateID(), err)
				continue
			}
			if en != m.Message {
				t.Errorf("%s: %s in English:\n got %q\nwant %q", cs.ID, m.TemplateID(), en, m.Message)
			}
			for _, l := range catalog.Langs[1:] {
				s, err := c.Render(l, m)
				if err != nil || strings.Contains(s, "<no value>") {
					t.Errorf("%s: %s in %s: %q, %v", cs.ID, m.TemplateID(), l, s, err)
				}
			}
		}
	}
	t.Logf("%d message templates seen: %v", len(seen), slices.Sorted(maps.Keys(seen)))
}
