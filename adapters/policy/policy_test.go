package policy_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/pb33f/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/svc-dss/dss/adapters/cryptosuite"
	"github.com/svc-dss/dss/adapters/policy"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/etsi"
)

// examples are the policy documents of docs/policies.
func examples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "policies", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	return files
}

// TestSchema holds the embedded default and every example of
// docs/policies to docs/validation-policy.schema.json, and the schema
// to refusing what the reader refuses.
func TestSchema(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "validation-policy.schema.json"))
	is.NoErr(err)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	is.NoErr(err)
	c := jsonschema.NewCompiler()
	is.NoErr(c.AddResource("validation-policy.schema.json", doc))
	schema, err := c.Compile("validation-policy.schema.json")
	is.NoErr(err)
	asJSON := func(data []byte) any {
		var v any
		is.NoErr(yaml.Unmarshal(data, &v))
		j, err := json.Marshal(v)
		is.NoErr(err)
		out, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		is.NoErr(err)
		return out
	}
	docs := map[string][]byte{"default": policy.DefaultDocument()}
	for _, f := range examples(t) {
		data, err := os.ReadFile(f)
		is.NoErr(err)
		docs[f] = data
	}
	for name, data := range docs {
		if err := schema.Validate(asJSON(data)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, bad := range []string{
		"description: no name\n",
		"name: x\nchecks:\n  signingTime: MAYBE\n",
		"name: x\nchecks:\n  signatureLevels:\n    level: FAIL\n    accepted: [C]\n",
		"name: x\nchecks:\n  revocationFreshness:\n    level: FAIL\n    maxAge: 1d\n",
		"name: x\nextra: 1\n",
	} {
		if schema.Validate(asJSON([]byte(bad))) == nil {
			t.Errorf("the schema accepts %q", bad)
		}
	}
}

// TestDefault: the embedded default is today's process, by name.
func TestDefault(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := policy.Default()
	is.Equal(p.Name, "default")
	is.Equal(p.File, "")
	is.Equal(p.Algorithms, nil)
	is.Equal(p.Constraints, etsi.DefaultConstraints())
	is.Equal(len(p.DigestHex()), 64)
}

// TestExamples: the stricter and laxer examples read as they say.
func TestExamples(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ps, err := policy.LoadDirectory(filepath.Join("..", "..", "docs", "policies"), nil)
	is.NoErr(err)
	is.Equal(len(ps), 2)
	lax, strict := ps[0], ps[1]
	is.Equal(lax.Name, "lax")
	is.Equal(lax.Constraints.SigningTime, etsi.LevelIgnore)
	is.Equal(strict.Name, "strict")
	is.Equal(strict.Constraints.SignatureLevels, etsi.Accepted[ades.Level]{Level: etsi.LevelFail, Accepted: []ades.Level{ades.LevelLT, ades.LevelLTA}})
	is.Equal(strict.Constraints.RevocationFreshness, etsi.Freshness{Level: etsi.LevelFail, MaxAge: 24 * time.Hour})
	is.Equal(strict.Constraints.OCSPUnknown, etsi.UnknownFails)
}

// TestInvalid: each unusable document is refused in one line naming
// the file, the path in it and the problem.
func TestInvalid(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, doc, want string }{
		{"empty", "", "policy %s: the document is empty"},
		{"not YAML", "name: [x\n", "policy %s: not YAML: line 1: did not find expected ',' or ']'"},
		{"no name", "description: x\n", "policy %s: name (line 1): missing"},
		{"bad name", "name: a b\n", `policy %s: name (line 1): "a b" is not a policy name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`},
		{"unknown field", "name: x\nlevel: FAIL\n", "policy %s: level (line 2): unknown field; the fields are checks, cryptographicSuite, description, expiryWarning, name"},
		{"bad level", "name: x\nchecks:\n  signingTime: MAYBE\n", `policy %s: checks.signingTime (line 3): "MAYBE" is not a level: FAIL, WARN, INFORM or IGNORE`},
		{"unknown check", "name: x\nchecks:\n  signingTimes: FAIL\n", "policy %s: checks.signingTimes (line 3): unknown field; the fields are commitmentTypes, contentType, ocspUnknown, revocationFreshness, signatureLevels, signaturePolicies, signingCertificateReference, signingTime"},
		{"level without a level", "name: x\nchecks:\n  commitmentTypes:\n    accepted: [a]\n", "policy %s: checks.commitmentTypes.level (line 4): missing"},
		{"bad signature level", "name: x\nchecks:\n  signatureLevels:\n    level: FAIL\n    accepted: [B, C]\n", `policy %s: checks.signatureLevels.accepted[1] (line 4): "C" is not a signature level: B, T, LT or LTA`},
		{"bad duration", "name: x\nchecks:\n  revocationFreshness:\n    level: FAIL\n    maxAge: 1d\n", `policy %s: checks.revocationFreshness.maxAge (line 5): invalid ISO-8601 duration "1d": must start with P (e.g. P7D, PT30S)`},
		{"bad ocspUnknown", "name: x\nchecks:\n  ocspUnknown: REVOKED\n", `policy %s: checks.ocspUnknown (line 3): "REVOKED" is neither INDETERMINATE nor FAIL`},
		{"suite without a reader", "name: x\ncryptographicSuite: suite.xml\n", "policy %s: cryptographicSuite (line 2): this build reads no cryptographic suite documents"},
		{"twice", "name: x\nname: y\n", "policy %s: name (line 2): given twice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			file := filepath.Join(t.TempDir(), "p.yaml")
			is.NoErr(os.WriteFile(file, []byte(c.doc), 0o600))
			_, err := policy.Load(file, nil)
			is.True(err != nil)
			is.Equal(err.Error(), fmt.Sprintf(c.want, file))
		})
	}
}

// TestLoadDirectory: names come from the documents, two of one name
// are refused, and files that are no YAML are not read.
func TestLoadDirectory(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	is.NoErr(os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("name: one\n"), 0o600))
	is.NoErr(os.WriteFile(filepath.Join(dir, "README"), []byte("not a policy"), 0o600))
	ps, err := policy.LoadDirectory(dir, nil)
	is.NoErr(err)
	is.Equal(len(ps), 1)
	is.Equal(ps[0].Name, "one")
	is.NoErr(os.WriteFile(filepath.Join(dir, "b.yml"), []byte("name: one\n"), 0o600))
	_, err = policy.LoadDirectory(dir, nil)
	is.Equal(err.Error(), fmt.Sprintf(`policy %s: name: "one" is already the name of %s`, filepath.Join(dir, "b.yml"), filepath.Join(dir, "a.yaml")))
	_, err = policy.LoadDirectory(filepath.Join(dir, "none"), nil)
	is.Equal(err.Error(), fmt.Sprintf("policy %s: the policy directory cannot be read: no such file or directory", filepath.Join(dir, "none")))
}

// TestSuite: a policy's cryptographic suite is read relative to the
// policy's file, with the reader given; a suite that cannot be read or
// parsed is the policy's error, at cryptographicSuite.
func TestSuite(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	suite, err := os.ReadFile(filepath.Join("..", "cryptosuite", "testdata", "strict.xml"))
	is.NoErr(err)
	is.NoErr(os.WriteFile(filepath.Join(dir, "suite.xml"), suite, 0o600))
	is.NoErr(os.WriteFile(filepath.Join(dir, "broken.xml"), []byte("<nope"), 0o600))
	file := filepath.Join(dir, "p.yaml")
	is.NoErr(os.WriteFile(file, []byte("name: p\ncryptographicSuite: suite.xml\nexpiryWarning: P30D\n"), 0o600))
	p, err := policy.Load(file, cryptosuite.Parse)
	is.NoErr(err)
	is.Equal(p.Suite, filepath.Join(dir, "suite.xml"))
	is.True(p.Algorithms != nil && !p.Algorithms.Empty())
	is.Equal(p.ExpiryWarning, 30*24*time.Hour)

	is.NoErr(os.WriteFile(file, []byte("name: p\ncryptographicSuite: none.xml\n"), 0o600))
	_, err = policy.Load(file, cryptosuite.Parse)
	is.Equal(err.Error(), fmt.Sprintf("policy %s: cryptographicSuite (line 2): %s cannot be read: no such file or directory", file, filepath.Join(dir, "none.xml")))

	is.NoErr(os.WriteFile(file, []byte("name: p\ncryptographicSuite: broken.xml\n"), 0o600))
	_, err = policy.Load(file, cryptosuite.Parse)
	is.True(err != nil)
	is.True(strings.HasPrefix(err.Error(), fmt.Sprintf("policy %s: cryptographicSuite (line 2): %s: ", file, filepath.Join(dir, "broken.xml"))))
}
