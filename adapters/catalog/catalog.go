package catalog

import (
	"embed"
	"fmt"
	"html"
	"maps"
	"slices"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/svc-dss/dss/domain/verdict"
)

// files are the catalogue, one file per language, named after it.
//
//go:embed *.toml
var files embed.FS

// A Catalog renders messages and texts in its languages. It is safe for
// concurrent use.
type Catalog struct {
	localizers map[Lang]*i18n.Localizer
	// templates are the templates of each language, by ID, for the
	// tests of completeness.
	templates map[Lang]map[string]string
}

// New reads the embedded catalogue of langs, or of every language when
// none is given. English, every language's fallback, is always read. A
// language that was not read is rendered as English.
func New(langs ...Lang) (*Catalog, error) {
	if len(langs) == 0 {
		langs = Langs
	}
	b := i18n.NewBundle(English.Tag())
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	c := &Catalog{localizers: map[Lang]*i18n.Localizer{}, templates: map[Lang]map[string]string{}}
	for _, l := range append([]Lang{English}, langs...) {
		if _, ok := c.templates[l]; ok {
			continue
		}
		name := string(l) + ".toml"
		f, err := b.LoadMessageFileFS(files, name)
		if err != nil {
			return nil, fmt.Errorf("catalog: %s: %w", name, err)
		}
		c.templates[l] = map[string]string{}
		for _, m := range f.Messages {
			c.templates[l][m.ID] = m.Other
		}
		c.localizers[l] = i18n.NewLocalizer(b, string(l))
	}
	return c, nil
}

// IDs returns the IDs of l's templates, sorted.
func (c *Catalog) IDs(l Lang) []string {
	return slices.Sorted(maps.Keys(c.templates[l]))
}

// Template returns l's template of id, and whether there is one.
func (c *Catalog) Template(l Lang, id string) (string, bool) {
	t, ok := c.templates[l][id]
	return t, ok
}

// Message returns m in l. English is the domain's own sentence; in
// another language, a message whose template is missing or fails stays
// in English rather than showing a broken sentence (the tests see that
// none is missing).
func (c *Catalog) Message(l Lang, m verdict.Message) string {
	if l == English {
		return m.Message
	}
	s, err := c.Render(l, m)
	if err != nil {
		return m.Message
	}
	return s
}

// Render renders m from l's template, with its parameters written as l
// writes them.
func (c *Catalog) Render(l Lang, m verdict.Message) (string, error) {
	data := make(map[string]string, len(m.Params))
	for _, p := range m.Params {
		data[p.Name] = l.format(p)
	}
	return c.localize(l, m.TemplateID(), data)
}

// Text returns the text id in l, with params ("Name", value, ...) as its
// template's data.
func (c *Catalog) Text(l Lang, id string, params ...string) string {
	s, err := c.localize(l, id, pairs(params))
	if err != nil {
		return id
	}
	return s
}

// HTML returns the text id in l for a page: the template may hold markup
// (the catalogue is ours), the parameters are escaped.
func (c *Catalog) HTML(l Lang, id string, params ...string) string {
	data := pairs(params)
	for k, v := range data {
		data[k] = html.EscapeString(v)
	}
	s, err := c.localize(l, id, data)
	if err != nil {
		return html.EscapeString(id)
	}
	return s
}

func pairs(params []string) map[string]string {
	data := make(map[string]string, len(params)/2)
	for i := 0; i+1 < len(params); i += 2 {
		data[params[i]] = params[i+1]
	}
	return data
}

func (c *Catalog) localize(l Lang, id string, data map[string]string) (string, error) {
	lc, ok := c.localizers[l]
	if !ok {
		lc = c.localizers[English]
	}
	if _, ok := c.templates[l][id]; !ok {
		return "", fmt.Errorf("catalog: no template %q in %s", id, l)
	}
	s, err := lc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
	if err != nil {
		return "", fmt.Errorf("catalog: %s in %s: %w", id, l, err)
	}
	return s, nil
}

// layouts are how a language writes the kinds of parameter that are
// instants and days; English keeps the domain's RFC 3339.
var layouts = map[verdict.ParamKind]map[Lang]string{
	verdict.Time: {German: "02.01.2006 15:04:05 UTC", French: "02/01/2006 15:04:05 UTC", Italian: "02/01/2006 15:04:05 UTC"},
	verdict.Date: {German: "02.01.2006", French: "02/01/2006", Italian: "02/01/2006"},
}

// format writes p's value as l writes its kind.
func (l Lang) format(p verdict.Param) string {
	layout := layouts[p.Kind][l]
	if layout == "" {
		return p.Value
	}
	in := time.RFC3339
	if p.Kind == verdict.Date {
		in = time.DateOnly
	}
	t, err := time.Parse(in, p.Value)
	if err != nil {
		return p.Value
	}
	return t.UTC().Format(layout)
}

// Banner returns the text of the trust banner b in l; English, or a
// banner made without a template ID, is the domain's own text.
func (c *Catalog) Banner(l Lang, b verdict.Banner) string {
	if l == English || b.ID == "" {
		return b.Text
	}
	return c.Message(l, verdict.Message{Message: b.Text, ID: b.ID, Params: b.Params})
}

// TrustData returns td with its banner in l.
func (c *Catalog) TrustData(l Lang, td verdict.TrustData) verdict.TrustData {
	if l == English || td.Banner == nil {
		return td
	}
	b := *td.Banner
	b.Text = c.Banner(l, b)
	td.Banner = &b
	return td
}

// Summary returns s with its messages, its summary sentences, its scope
// descriptions and its
// trust banner in l: the codes stay, the sentences change. English
// returns s as it is.
func (c *Catalog) Summary(l Lang, s verdict.ValidationSummary) verdict.ValidationSummary {
	if l == English {
		return s
	}
	s.TrustData = c.TrustData(l, s.TrustData)
	s.Summary = c.sentence(l, s.DocumentSentence(), s.Summary)
	s.Signatures = slices.Clone(s.Signatures)
	for i := range s.Signatures {
		r := &s.Signatures[i]
		r.Summary = c.sentence(l, verdict.SignatureSentence(r.Indication, r.SubIndication), r.Summary)
		r.SignatureScope = c.scopes(l, r.SignatureScope)
		s.Signatures[i].Errors = c.messages(l, s.Signatures[i].Errors)
		s.Signatures[i].Warnings = c.messages(l, s.Signatures[i].Warnings)
	}
	s.Timestamps = slices.Clone(s.Timestamps)
	for i := range s.Timestamps {
		s.Timestamps[i].Errors = c.messages(l, s.Timestamps[i].Errors)
		s.Timestamps[i].Warnings = c.messages(l, s.Timestamps[i].Warnings)
	}
	return s
}

// scopes returns scopes with their descriptions in l; a scope made
// without a template ID keeps its own.
func (c *Catalog) scopes(l Lang, scopes []verdict.SignatureScope) []verdict.SignatureScope {
	if scopes == nil {
		return nil
	}
	out := slices.Clone(scopes)
	for i, s := range out {
		if s.ID != "" {
			out[i].Description = c.Message(l, verdict.Message{Message: s.Description, ID: s.ID, Params: s.Params})
		}
	}
	return out
}

// sentence is the summary sentence key in l; english, the sentence as
// the summary holds it, when l has no template.
func (c *Catalog) sentence(l Lang, key verdict.Sentence, english string) string {
	s, err := c.localize(l, key.ID(), nil)
	if err != nil {
		return english
	}
	return s
}

func (c *Catalog) messages(l Lang, ms []verdict.Message) []verdict.Message {
	if ms == nil {
		return nil
	}
	out := make([]verdict.Message, len(ms))
	for i, m := range ms {
		out[i] = m
		out[i].Message = c.Message(l, m)
	}
	return out
}
