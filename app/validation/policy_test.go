package validation_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/cryptosuite"
	"github.com/svc-dss/dss/adapters/policy"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestPolicySuites: a document validated under a named policy is judged
// by the suite the policy's document names, and the summary names the
// policy: SHA-1 and RSA-1024 are CRYPTO_CONSTRAINTS_FAILURE_NO_POE under
// the default policy, CRYPTO_CONSTRAINTS_FAILURE under a stricter policy
// naming the stricter suite, and pass under a laxer one naming the laxer.
func TestPolicySuites(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	dir := t.TempDir()
	for _, name := range []string{"strict.xml", "lax.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "adapters", "cryptosuite", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	load := func(doc string) policy.Policy {
		file := filepath.Join(dir, "p.yaml")
		if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := policy.Load(file, cryptosuite.Parse)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	strict := load("name: strict\ncryptographicSuite: strict.xml\n")
	lax := load("name: lax\ncryptographicSuite: lax.json\n")
	def := policy.Default()
	content := []byte("judged under three policies\n")
	fixtures := []struct {
		name string
		opts cades.Options
	}{
		{"SHA-1", cades.Options{Level: cades.B, Defect: cades.SHA1Signature, SigningTime: signedYesterday}},
		{"RSA-1024", cades.Options{Level: cades.B, Defect: cades.WeakRSAKey, SigningTime: signedYesterday}},
	}
	policies := []struct {
		p          *policy.Policy
		indication verdict.Indication
		sub        verdict.SubIndication
	}{
		{nil, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE},
		{&strict, verdict.Indeterminate, verdict.SubCryptoConstraintsFailure},
		{&lax, verdict.TotalPassed, ""},
	}
	for _, f := range fixtures {
		sig := s.sign(t, content, f.opts)
		for _, pc := range policies {
			name := def.Name
			if pc.p != nil {
				name = pc.p.Name
			}
			t.Run(f.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				is := is.New(t)
				doc := document(sig, content, false)
				doc.Policy = pc.p
				sum, err := validate(s.v, doc, s.at)
				is.NoErr(err)
				got := sum.Signatures[0]
				is.Equal(got.Indication, pc.indication)
				is.Equal(deref(got.SubIndication), pc.sub)
				want := def
				if pc.p != nil {
					want = *pc.p
				}
				is.Equal(*sum.ValidationPolicy, verdict.PolicyName{Name: want.Name, SHA256: want.DigestHex()})
			})
		}
	}
}
