package validation_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// theCatalogue is the message catalogue every validation of these tests
// is held to (validateReport).
var theCatalogue = sync.OnceValues(func() (*catalog.Catalog, error) { return catalog.New() })

// catalogued returns the template IDs of sum's messages, and an error
// for a message whose English template does not render the very
// sentence the domain wrote, or which another language cannot render
// with every parameter.
func catalogued(sum verdict.ValidationSummary) ([]string, error) {
	c, err := theCatalogue()
	if err != nil {
		return nil, err
	}
	var ms []verdict.Message
	for _, s := range sum.Signatures {
		ms = append(append(ms, s.Errors...), s.Warnings...)
	}
	for _, e := range sum.Timestamps {
		ms = append(append(ms, e.Errors...), e.Warnings...)
	}
	var ids []string
	var errs []error
	for _, m := range ms {
		ids = append(ids, m.TemplateID())
		en, err := c.Render(catalog.English, m)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if en != m.Message {
			errs = append(errs, fmt.Errorf("%s in English:\n got %q\nwant %q", m.TemplateID(), en, m.Message))
		}
		for _, l := range catalog.Langs[1:] {
			if s, err := c.Render(l, m); err != nil || strings.Contains(s, "<no value>") {
				errs = append(errs, fmt.Errorf("%s in %s: %q, %v", m.TemplateID(), l, s, err))
			}
		}
	}
	return ids, errors.Join(errs...)
}

// TestCorpusMessagesInTheCatalogue: every error and warning the
// validator gives on the real-world corpus (the cases TestCorpusVerdicts
// pins) is said by the catalogue as the domain wrote it in English, and
// in German, French and Italian with every parameter filled. Every
// validation of these tests is held to the same (validateReport); this
// one names the templates the corpus reaches.
func TestCorpusMessagesInTheCatalogue(t *testing.T) {
	cases := conformanceCases(t)
	if len(cases) == 0 {
		t.Fatal("MANIFEST.tsv lists no case of the conformance formats")
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
		ids, err := catalogued(r.Summary)
		if err != nil {
			t.Errorf("%s: %v", cs.ID, err)
		}
		for _, id := range ids {
			seen[id] = true
		}
	}
	t.Logf("%d message templates seen: %v", len(seen), slices.Sorted(maps.Keys(seen)))
}
