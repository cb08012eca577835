package policy

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/svc-dss/dss/adapters/isoduration"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/etsi"
)

//go:embed default.yaml
var defaultDocument []byte

// A Policy is a validation policy read from its document.
type Policy struct {
	// Name names the policy: in requests (the multipart part policy),
	// in the tenants' defaults and in the verdict.
	Name        string
	Description string
	// Digest is the SHA-256 of the document's bytes, as the verdict
	// names it.
	Digest [sha256.Size]byte
	// File is the document's file; empty for the embedded default.
	File string
	// Suite is the cryptographic suite file the document names,
	// resolved against the document's directory; empty: the embedded
	// default suite.
	Suite string
	// Algorithms are the suite's constraints; nil: the default
	// catalogue.
	Algorithms *algorithm.Catalogue
	// ExpiryWarning is how long before an algorithm's expiry a
	// signature relying on it is warned about; zero: the process's
	// default window.
	ExpiryWarning time.Duration
	// Constraints are the levels of the checks.
	Constraints etsi.Constraints
}

// DigestHex is Digest in lower-case hexadecimal.
func (p Policy) DigestHex() string { return hex.EncodeToString(p.Digest[:]) }

// A SuiteReader reads a cryptographic suite document (ETSI TS 119
// 322, XML or JSON) into a catalogue.
type SuiteReader func(data []byte) (algorithm.Catalogue, error)

// An Error is a policy document that cannot be used: File names it
// ("the embedded default" for that one), Path the place in it
// ("checks.signingTime"; empty for the whole document), Line the line
// of that place (0 when unknown), Problem what is wrong.
type Error struct {
	File    string
	Path    string
	Line    int
	Problem string
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "policy %s", e.File)
	if e.Path != "" {
		fmt.Fprintf(&b, ": %s", e.Path)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", e.Line)
	}
	fmt.Fprintf(&b, ": %s", e.Problem)
	return b.String()
}

// Default is the embedded default policy.
func Default() Policy {
	p, err := parse(defaultDocument, "", nil)
	if err != nil {
		panic(err) // the embedded document is held valid by its tests
	}
	return p
}

// DefaultDocument is the embedded default policy's document.
func DefaultDocument() []byte { return bytes.Clone(defaultDocument) }

// Load reads the policy document file; suite reads the cryptographic
// suite it names (nil: a document that names one is refused).
func Load(file string, suite SuiteReader) (Policy, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return Policy{}, &Error{File: file, Problem: "cannot be read: " + strings.TrimPrefix(err.Error(), "open "+file+": ")}
	}
	return parse(data, file, suite)
}

// LoadDirectory reads every policy document of dir (files named
// *.yaml or *.yml, in name order). Two documents of one name are an
// error, as is a document named as the default is (the name
// "default" belongs to the embedded policy).
func LoadDirectory(dir string, suite SuiteReader) ([]Policy, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, &Error{File: dir, Problem: "the policy directory cannot be read: " + strings.TrimPrefix(err.Error(), "open "+dir+": ")}
	}
	var out []Policy
	seen := map[string]string{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
			continue
		}
		file := filepath.Join(dir, name)
		p, err := Load(file, suite)
		if err != nil {
			return nil, err
		}
		if other, ok := seen[p.Name]; ok {
			return nil, &Error{File: file, Path: "name", Problem: fmt.Sprintf("%q is already the name of %s", p.Name, other)}
		}
		seen[p.Name] = file
		out = append(out, p)
	}
	return out, nil
}

// parse reads the document data of file, node by node so that every
// problem names its path and line.
func parse(data []byte, file string, suite SuiteReader) (Policy, error) {
	shown := file
	if shown == "" {
		shown = "(embedded default)"
	}
	fail := func(path string, n *yaml.Node, format string, args ...any) error {
		line := 0
		if n != nil {
			line = n.Line
		}
		return &Error{File: shown, Path: path, Line: line, Problem: fmt.Sprintf(format, args...)}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return Policy{}, &Error{File: shown, Problem: "not YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if len(root.Content) == 0 {
		return Policy{}, fail("", nil, "the document is empty")
	}
	doc := root.Content[0]
	p := Policy{Digest: sha256.Sum256(data), File: file}
	top, err := fields(doc, "", fail, map[string]bool{"name": true, "description": false, "cryptographicSuite": false, "expiryWarning": false, "checks": false})
	if err != nil {
		return Policy{}, err
	}
	if p.Name, err = scalar(top["name"], "name", fail); err != nil {
		return Policy{}, err
	}
	if !validName(p.Name) {
		return Policy{}, fail("name", top["name"], "%q is not a policy name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", p.Name)
	}
	if n := top["description"]; n != nil {
		if p.Description, err = scalar(n, "description", fail); err != nil {
			return Policy{}, err
		}
	}
	if n := top["expiryWarning"]; n != nil {
		s, err := scalar(n, "expiryWarning", fail)
		if err != nil {
			return Policy{}, err
		}
		if p.ExpiryWarning, err = isoduration.Parse(s); err != nil {
			return Policy{}, fail("expiryWarning", n, "%v", err)
		}
	}
	if n := top["cryptographicSuite"]; n != nil {
		s, err := scalar(n, "cryptographicSuite", fail)
		if err != nil {
			return Policy{}, err
		}
		if file == "" || s == "" {
			return Policy{}, fail("cryptographicSuite", n, "an empty path")
		}
		p.Suite = s
		if !filepath.IsAbs(s) {
			p.Suite = filepath.Join(filepath.Dir(file), s)
		}
		if suite == nil {
			return Policy{}, fail("cryptographicSuite", n, "this build reads no cryptographic suite documents")
		}
		data, err := os.ReadFile(p.Suite)
		if err != nil {
			return Policy{}, fail("cryptographicSuite", n, "%s cannot be read: %v", p.Suite, errors.Unwrap(err))
		}
		cat, err := suite(data)
		if err != nil {
			return Policy{}, fail("cryptographicSuite", n, "%s: %v", p.Suite, err)
		}
		p.Algorithms = &cat
	}
	if n := top["checks"]; n != nil {
		if p.Constraints, err = constraints(n, fail); err != nil {
			return Policy{}, err
		}
	}
	return p, nil
}

// validName reports whether name is 1 to 64 ASCII letters, digits, '.',
// '_' or '-', starting with a letter or digit. A loop, not a regular
// expression: a pattern compiled at package initialisation costs every
// process start, the one-shot validate command's included
// (docs/decisions/0044).
func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

type failFunc func(path string, n *yaml.Node, format string, args ...any) error

// fields reads mapping n whose keys are those of known (true: required).
func fields(n *yaml.Node, path string, fail failFunc, known map[string]bool) (map[string]*yaml.Node, error) {
	at := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	if n.Kind != yaml.MappingNode {
		return nil, fail(path, n, "expected a mapping")
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if _, ok := known[k.Value]; !ok {
			names := make([]string, 0, len(known))
			for name := range known {
				names = append(names, name)
			}
			slices.Sort(names)
			return nil, fail(at(k.Value), k, "unknown field; the fields are %s", strings.Join(names, ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, fail(at(k.Value), k, "given twice")
		}
		out[k.Value] = v
	}
	for k, required := range known {
		if required && out[k] == nil {
			return nil, fail(at(k), n, "missing")
		}
	}
	return out, nil
}

func scalar(n *yaml.Node, path string, fail failFunc) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", fail(path, n, "expected a single value")
	}
	return n.Value, nil
}

func strs(n *yaml.Node, path string, fail failFunc) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, fail(path, n, "expected a list")
	}
	out := make([]string, 0, len(n.Content))
	for i, c := range n.Content {
		s, err := scalar(c, fmt.Sprintf("%s[%d]", path, i), fail)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

var levels = map[string]etsi.Level{"FAIL": etsi.LevelFail, "WARN": etsi.LevelWarn, "INFORM": etsi.LevelInform, "IGNORE": etsi.LevelIgnore}

func level(n *yaml.Node, path string, fail failFunc) (etsi.Level, error) {
	s, err := scalar(n, path, fail)
	if err != nil {
		return 0, err
	}
	l, ok := levels[s]
	if !ok {
		return 0, fail(path, n, "%q is not a level: FAIL, WARN, INFORM or IGNORE", s)
	}
	return l, nil
}

var signatureLevels = map[string]ades.Level{"B": ades.LevelB, "T": ades.LevelT, "LT": ades.LevelLT, "LTA": ades.LevelLTA}

// constraints reads the checks mapping.
func constraints(n *yaml.Node, fail failFunc) (etsi.Constraints, error) {
	var c etsi.Constraints
	f, err := fields(n, "checks", fail, map[string]bool{
		"signingCertificateReference": false, "signingTime": false, "contentType": false,
		"signatureLevels": false, "commitmentTypes": false, "signaturePolicies": false,
		"revocationFreshness": false, "ocspUnknown": false,
	})
	if err != nil {
		return c, err
	}
	for key, dst := range map[string]*etsi.Level{"signingCertificateReference": &c.SigningCertificateReference, "signingTime": &c.SigningTime, "contentType": &c.ContentType} {
		if v := f[key]; v != nil {
			if *dst, err = level(v, "checks."+key, fail); err != nil {
				return c, err
			}
		}
	}
	accepted := func(key string) (etsi.Level, []string, error) {
		v := f[key]
		if v == nil {
			return etsi.LevelDefault, nil, nil
		}
		path := "checks." + key
		g, err := fields(v, path, fail, map[string]bool{"level": true, "accepted": false})
		if err != nil {
			return 0, nil, err
		}
		l, err := level(g["level"], path+".level", fail)
		if err != nil {
			return 0, nil, err
		}
		var list []string
		if a := g["accepted"]; a != nil {
			if list, err = strs(a, path+".accepted", fail); err != nil {
				return 0, nil, err
			}
		}
		return l, list, nil
	}
	var names []string
	if c.SignatureLevels.Level, names, err = accepted("signatureLevels"); err != nil {
		return c, err
	}
	for i, s := range names {
		l, ok := signatureLevels[s]
		if !ok {
			return c, fail(fmt.Sprintf("checks.signatureLevels.accepted[%d]", i), f["signatureLevels"], "%q is not a signature level: B, T, LT or LTA", s)
		}
		c.SignatureLevels.Accepted = append(c.SignatureLevels.Accepted, l)
	}
	if c.CommitmentTypes.Level, c.CommitmentTypes.Accepted, err = accepted("commitmentTypes"); err != nil {
		return c, err
	}
	if c.SignaturePolicies.Level, c.SignaturePolicies.Accepted, err = accepted("signaturePolicies"); err != nil {
		return c, err
	}
	if v := f["revocationFreshness"]; v != nil {
		g, err := fields(v, "checks.revocationFreshness", fail, map[string]bool{"level": true, "maxAge": false})
		if err != nil {
			return c, err
		}
		if c.RevocationFreshness.Level, err = level(g["level"], "checks.revocationFreshness.level", fail); err != nil {
			return c, err
		}
		if m := g["maxAge"]; m != nil {
			s, err := scalar(m, "checks.revocationFreshness.maxAge", fail)
			if err != nil {
				return c, err
			}
			if c.RevocationFreshness.MaxAge, err = isoduration.Parse(s); err != nil {
				return c, fail("checks.revocationFreshness.maxAge", m, "%v", err)
			}
		}
	}
	if v := f["ocspUnknown"]; v != nil {
		s, err := scalar(v, "checks.ocspUnknown", fail)
		if err != nil {
			return c, err
		}
		switch s {
		case "INDETERMINATE":
			c.OCSPUnknown = etsi.UnknownIndeterminate
		case "FAIL":
			c.OCSPUnknown = etsi.UnknownFails
		default:
			return c, fail("checks.ocspUnknown", v, "%q is neither INDETERMINATE nor FAIL", s)
		}
	}
	return c, nil
}
