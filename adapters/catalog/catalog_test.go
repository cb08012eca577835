package catalog_test

import (
	"crypto/sha256"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"text/template/parse"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/adapters/reportpdf"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/verdict"
)

func newCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// codes collects every message code the code base can emit from its
// declarations, not from a list kept by hand: the string constants named
// Code… of the domain and of the format readers, and the constants of
// type SubIndication (an error's code is its sub-indication's name), and
// the template IDs of the scope descriptions (constants ScopeID…).
func codes(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	set := map[string]bool{}
	for _, dir := range []string{"domain", filepath.Join("adapters", "formats")} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				g, ok := decl.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					typed := false
					if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "SubIndication" {
						typed = true
					}
					for i, name := range vs.Names {
						if i >= len(vs.Values) || !(typed || strings.HasPrefix(name.Name, "Code") || strings.HasPrefix(name.Name, "ScopeID")) {
							continue
						}
						lit, ok := vs.Values[i].(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							continue
						}
						v, err := strconv.Unquote(lit.Value)
						if err != nil {
							return err
						}
						set[v] = true
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// fields returns the names of the parameters template s reads.
func fields(t *testing.T, id, s string) []string {
	t.Helper()
	tm, err := template.New(id).Parse(s)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	set := map[string]bool{}
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.FieldNode:
			set[strings.Join(n.Ident, ".")] = true
		}
	}
	walk(tm.Tree.Root)
	return slices.Sorted(maps.Keys(set))
}

// TestCatalogueComplete: every code the code base can emit has a
// template in every language (its own ID, or variants of it); every
// template of one language is in the others, with the same parameters.
func TestCatalogueComplete(t *testing.T) {
	c := newCatalog(t)
	all := codes(t)
	if len(all) < 100 {
		t.Fatalf("only %d codes collected: the collection is broken", len(all))
	}
	for _, l := range catalog.Langs {
		ids := c.IDs(l)
		for _, key := range verdict.Sentences() {
			if !slices.Contains(ids, key.ID()) {
				t.Errorf("%s: summary sentence %s has no template", l, key)
			}
		}
		for _, code := range all {
			if !slices.ContainsFunc(ids, func(id string) bool { return id == code || strings.HasPrefix(id, code+".") }) {
				t.Errorf("%s: code %s has no template", l, code)
			}
		}
	}
	for _, id := range c.IDs(catalog.English) {
		en, _ := c.Template(catalog.English, id)
		want := fields(t, id, en)
		for _, l := range catalog.Langs[1:] {
			s, ok := c.Template(l, id)
			if !ok {
				t.Errorf("%s: no template %s", l, id)
				continue
			}
			if got := fields(t, id, s); !slices.Equal(got, want) {
				t.Errorf("%s: %s has parameters %v, English %v", l, id, got, want)
			}
		}
	}
	for _, l := range catalog.Langs[1:] {
		for _, id := range c.IDs(l) {
			if _, ok := c.Template(catalog.English, id); !ok {
				t.Errorf("%s: template %s is not in English", l, id)
			}
		}
	}
}

// TestEnglishIsTheDomainsSentence: the English templates render the
// sentences the domain writes, parameters and all (the validation
// tests of app/validation check the same over the corpus).
func TestEnglishIsTheDomainsSentence(t *testing.T) {
	c := newCatalog(t)
	confirmed := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	issued := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	ch, qes := "CH", "QES"
	list := func(state, authenticity string, online, issue *time.Time) verdict.TrustData {
		return verdict.TrustData{EvaluatedAt: confirmed.Add(72 * time.Hour), WithdrawalWindowDays: 7,
			Lists: []verdict.ListStatus{{Territory: "CH", Kind: "TL", State: state, Authenticity: authenticity, LastOnlineConfirmation: online, IssueDate: issue}}}
	}
	sub := verdict.SubNoCertificateChainFound
	var messages []verdict.Message
	for _, td := range []verdict.TrustData{
		list("STALE", "VALID", &confirmed, nil),
		list("EXPIRED", "", nil, nil),
		list("CACHE_ONLY", "INDETERMINATE", nil, &issued),
	} {
		s := verdict.Summarize("doc.pdf", sha256.Sum256(nil), []verdict.SignatureReport{{Indication: verdict.TotalPassed, AnchorCountry: &ch, SwissQualification: &qes}}, td)
		messages = append(messages, s.Signatures[0].Warnings...)
	}
	s := verdict.Summarize("doc.pdf", sha256.Sum256(nil), []verdict.SignatureReport{
		{Indication: verdict.TotalPassed, SwissQualification: &qes},
		{Indication: verdict.Indeterminate, SubIndication: &sub},
	}, verdict.TrustData{Category: "no-list-loaded"})
	messages = append(messages, s.Signatures[0].Warnings...)
	messages = append(messages, s.Signatures[1].Warnings...)
	messages = append(messages, verdict.DetachedPartNotSigned("annex.pdf"))
	if len(messages) != 9 {
		t.Fatalf("%d messages, want 9: %v", len(messages), messages)
	}
	for _, m := range messages {
		t.Run(m.TemplateID(), func(t *testing.T) {
			is := is.New(t)
			got, err := c.Render(catalog.English, m)
			is.NoErr(err)
			is.Equal(got, m.Message)
		})
	}
}

// TestSentencesInEnglish: the English templates of the summary
// sentences are the domain's table.
func TestSentencesInEnglish(t *testing.T) {
	c := newCatalog(t)
	keys := verdict.Sentences()
	if len(keys) < 30 {
		t.Fatalf("only %d summary sentences", len(keys))
	}
	for _, key := range keys {
		t.Run(string(key), func(t *testing.T) {
			is := is.New(t)
			is.Equal(c.Text(catalog.English, key.ID()), key.English())
		})
	}
}

// TestScopesInEnglish: the English templates of the scope descriptions
// render the descriptions the domain writes; German renders them too.
func TestScopesInEnglish(t *testing.T) {
	pdf := func(revision, revisions int, whole bool, changes ...string) ades.Signature {
		return ades.Signature{Placement: &ades.Placement{Kind: ades.PDFField, Name: "Sig1", Revision: revision, Revisions: revisions, CoversWholeDocument: whole, Changes: changes}}
	}
	data := func(container string, objects ...ades.DataObject) ades.Signature {
		return ades.Signature{Container: container, DataObjects: objects}
	}
	sigs := []ades.Signature{
		{CounterSignatureOf: "S-1"},
		pdf(0, 2, false), pdf(2, 2, true), pdf(1, 2, false), pdf(1, 3, false), pdf(2, 1, false),
		pdf(1, 3, false, "annotations were added after signing, on page 1", "form fields were filled in or changed after signing: name."),
		data("", ades.DataObject{Name: "content"}, ades.DataObject{Name: "a \"b\".xml"}),
		data("ASiC-E", ades.DataObject{Name: "a.txt", Found: true, Intact: true}, ades.DataObject{Name: "b.txt", Found: true}),
		data("", ades.DataObject{Name: "annex.pdf", Part: 1, Found: true, Intact: true}, ades.DataObject{Name: "content", Found: true}),
		data("", ades.DataObject{Name: "/ds:Signature/ds:Object[2]", Found: true, Intact: true}, ades.DataObject{Name: "/Invoice/Total", Found: true}),
		data("", ades.DataObject{Name: "#ref", Found: true, Intact: true}, ades.DataObject{Name: "/", Found: true, Intact: true}),
	}
	c := newCatalog(t)
	seen := map[string]bool{}
	for _, sig := range sigs {
		for _, sc := range etsi.Scopes(sig) {
			t.Run(sc.Description, func(t *testing.T) {
				is := is.New(t)
				seen[sc.ID] = true
				m := verdict.Message{Message: sc.Description, ID: sc.ID, Params: sc.Params}
				got, err := c.Render(catalog.English, m)
				is.NoErr(err)
				is.Equal(got, sc.Description)
				de, err := c.Render(catalog.German, m)
				is.NoErr(err)
				is.True(de != sc.Description)
			})
		}
	}
	if len(seen) != 12 {
		t.Errorf("%d scope templates exercised, want 12: %v", len(seen), slices.Sorted(maps.Keys(seen)))
	}
}

// TestReportLabels: every fixed text of the PDF report is in every
// language, English as the report's own, with the same fmt verbs in the
// same order (the report fills them with fmt.Sprintf).
func TestReportLabels(t *testing.T) {
	c := newCatalog(t)
	verbs := regexp.MustCompile(`%[sd]`)
	labels := reportpdf.Labels()
	if len(labels) < 50 {
		t.Fatalf("only %d report labels", len(labels))
	}
	for id, en := range labels {
		for _, l := range catalog.Langs {
			s, ok := c.Template(l, id)
			switch {
			case !ok:
				t.Errorf("%s: no template %s", l, id)
			case l == catalog.English && s != en:
				t.Errorf("en: %s is %q, the report's %q", id, s, en)
			case !slices.Equal(verbs.FindAllString(s, -1), verbs.FindAllString(en, -1)):
				t.Errorf("%s: %s has verbs %q, English %q", l, id, verbs.FindAllString(s, -1), verbs.FindAllString(en, -1))
			}
		}
	}
}

// TestRenderInGerman: a message in German keeps its code, writes its
// dates in the German way and its names as they are.
func TestRenderInGerman(t *testing.T) {
	is := is.New(t)
	c := newCatalog(t)
	claimed := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m := verdict.Say("CLAIMED_SIGNING_TIME_AFTER_TIMESTAMP", "", "english",
		verdict.TimeParam("Claimed", claimed), verdict.TimeParam("POE", claimed.Add(-time.Hour)))
	is.Equal(c.Message(catalog.German, m), "der angegebene Signaturzeitpunkt 02.01.2026 03:04:05 UTC liegt nach dem Existenznachweis der Signatur vom 02.01.2026 02:04:05 UTC")
	is.Equal(c.Message(catalog.English, m), "english") // the domain's sentence
	d := verdict.DetachedPartNotSigned("annex.pdf")
	is.Equal(c.Message(catalog.French, d), "la partie détachée « annex.pdf » a été fournie avec le document, mais aucune de ses signatures ne la couvre : rien ici n’indique qui l’a signée")
	is.Equal(c.Message(catalog.Italian, verdict.Message{Code: "NO_SUCH_CODE", Message: "as the domain says"}), "as the domain says") // no template: English
}

// TestSummaryInALanguage: the summary's messages change language, their
// codes and everything else stay.
func TestSummaryInALanguage(t *testing.T) {
	is := is.New(t)
	c := newCatalog(t)
	sum := verdict.Summarize("doc.pdf", sha256.Sum256(nil), []verdict.SignatureReport{{Indication: verdict.TotalPassed}}, verdict.TrustData{})
	sum.Signatures[0].Warnings = append(sum.Signatures[0].Warnings, verdict.DetachedPartNotSigned("a.xml"))
	de := c.Summary(catalog.German, sum)
	is.Equal(de.Signatures[0].Warnings[0].Code, verdict.CodeDetachedPartNotSigned)
	is.True(strings.HasPrefix(de.Signatures[0].Warnings[0].Message, "der separate Teil „a.xml“"))
	is.Equal(de.Signatures[0].Errors, []verdict.Message{})                                 // [] stays []
	is.True(strings.HasPrefix(sum.Signatures[0].Warnings[0].Message, "the detached part")) // the original is untouched
	is.Equal(de.DocumentSHA256, sum.DocumentSHA256)
	is.Equal(de.Summary, "Das Dokument ist gültig signiert: Jede seiner Signaturen ist gültig.")
	is.Equal(de.Signatures[0].Summary, "Die Signatur ist gültig.")
	is.Equal(sum.Signatures[0].Summary, "The signature is valid.")

	sum.Signatures[0].SignatureScope = etsi.Scopes(ades.Signature{Container: "ASiC-E", DataObjects: []ades.DataObject{{Name: "a.txt", Found: true, Intact: true}}})
	fr := c.Summary(catalog.French, sum)
	is.Equal(fr.Signatures[0].SignatureScope[0].Description, "L’intégralité du fichier « a.txt » du conteneur ASiC-E.")
	is.Equal(sum.Signatures[0].SignatureScope[0].Description, `The whole file "a.txt" of the ASiC-E container.`)
}

func TestNegotiate(t *testing.T) {
	tests := []struct {
		header string
		want   catalog.Lang
	}{
		{"", catalog.English},
		{"de", catalog.German},
		{"de-CH", catalog.German},
		{"fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7", catalog.French},
		{"en;q=0.2, it;q=0.9", catalog.Italian},
		{"it-CH;q=0.5, de;q=0.6", catalog.German},
		{"es", catalog.English},
		{"ja, zh;q=0.9", catalog.English},
		{"*", catalog.English},
		{"de;q=0", catalog.English},
		{"not a language header;;", catalog.English},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			is := is.New(t)
			is.Equal(catalog.Negotiate(tt.header), tt.want)
		})
	}
}

func TestParseLang(t *testing.T) {
	is := is.New(t)
	for _, l := range catalog.Langs {
		got, err := catalog.ParseLang(strings.ToUpper(string(l)))
		is.NoErr(err)
		is.Equal(got, l)
	}
	_, err := catalog.ParseLang("es")
	is.Equal(err.Error(), `unknown language "es": use en, de, fr or it`)
}

// TestNewSomeLanguages: a catalogue read for German renders German and,
// in a language it did not read, the domain's English.
func TestNewSomeLanguages(t *testing.T) {
	is := is.New(t)
	c, err := catalog.New(catalog.German)
	is.NoErr(err)
	d := verdict.DetachedPartNotSigned("a.xml")
	is.True(strings.HasPrefix(c.Message(catalog.German, d), "der separate Teil „a.xml“"))
	is.Equal(c.Message(catalog.French, d), d.Message)
	is.Equal(len(c.IDs(catalog.French)), 0)
	is.Equal(c.IDs(catalog.English), newCatalog(t).IDs(catalog.English))
}
