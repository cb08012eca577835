package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/policy"
	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// examplePolicies is docs/policies: the named policies strict and lax.
var examplePolicies = filepath.Join("..", "..", "docs", "policies")

// postPolicy posts file as the part "file", each of values as a value
// part, and each of files as a file part, with the Authorization header
// auth ("" for none).
func postPolicy(t *testing.T, url, auth string, file []byte, values map[string][]string, files map[string][]byte) (*http.Response, []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	fw, err := w.CreateFormFile("file", "doc.p7m")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(file)
	for name, vs := range values {
		for _, v := range vs {
			if err := w.WriteField(name, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, data := range files {
		fw, err := w.CreateFormFile(name, name+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(data)
	}
	w.Close()
	req, err := http.NewRequest(http.MethodPost, url+"/api/validate", &b)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

func sub(r verdict.SignatureReport) verdict.SubIndication {
	if r.SubIndication == nil {
		return ""
	}
	return *r.SubIndication
}

// TestPolicyPart: the part policy names a configured policy, and the
// same B-level signature passes under the default and the laxer policy
// and is refused under the stricter one, which accepts LT and LTA only;
// the summary names the policy by name and SHA-256. A name the
// validator does not know, a policy sent as a document and a name given
// twice are 400 with what is wrong.
func TestPolicyPart(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t, "SVC_DSS_VALIDATOR_POLICY_DIRECTORY="+examplePolicies)
	sig, err := cades.Sign([]byte("contract text, signed"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B,
		SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	strict, err := policy.Load(filepath.Join(examplePolicies, "strict.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	lax, err := policy.Load(filepath.Join(examplePolicies, "lax.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	outcomes := []struct {
		name       string
		values     map[string][]string
		indication verdict.Indication
		sub        verdict.SubIndication
		policy     verdict.PolicyName
	}{
		{"no part: the default", nil, verdict.TotalPassed, "", verdict.PolicyName{Name: "default", SHA256: policy.Default().DigestHex()}},
		{"the default by name", map[string][]string{"policy": {"default"}}, verdict.TotalPassed, "", verdict.PolicyName{Name: "default", SHA256: policy.Default().DigestHex()}},
		{"laxer", map[string][]string{"policy": {"lax"}}, verdict.TotalPassed, "", verdict.PolicyName{Name: "lax", SHA256: lax.DigestHex()}},
		{"stricter: B where LT is required", map[string][]string{"policy": {"strict"}}, verdict.Indeterminate, verdict.SubSigConstraintsFailure, verdict.PolicyName{Name: "strict", SHA256: strict.DigestHex()}},
	}
	for _, tt := range outcomes {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			res, body := postPolicy(t, s.URL, "", sig, tt.values, nil)
			is.Equal(res.StatusCode, 200)
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal(body, &sum))
			is.Equal(sum.Signatures[0].Indication, tt.indication)
			is.Equal(sub(sum.Signatures[0]), tt.sub)
			is.Equal(*sum.ValidationPolicy, tt.policy)
		})
	}
	refusals := []struct {
		name         string
		values       map[string][]string
		files        map[string][]byte
		slug, detail string
	}{
		{"unknown name", map[string][]string{"policy": {"nope"}}, nil, "unknown-policy", `unknown validation policy "nope": the policies are default, lax, strict`},
		{"empty name", map[string][]string{"policy": {""}}, nil, "invalid-policy-part", `the part "policy" is empty`},
		{"a policy document", nil, map[string][]byte{"policy": []byte("name: mine\n")}, "invalid-policy-part", `the part "policy" names a configured validation policy; a policy document is not accepted`},
		{"twice", map[string][]string{"policy": {"lax", "strict"}}, nil, "invalid-policy-part", `the part "policy" is given 2 times`},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			res, body := postPolicy(t, s.URL, "", sig, tt.values, tt.files)
			is.Equal(res.StatusCode, 400)
			var p servertest.Problem
			is.NoErr(json.Unmarshal(body, &p))
			is.Equal(p.Type, "urn:svc-dss:problem:"+tt.slug)
			is.Equal(p.Detail, tt.detail)
		})
	}
}

// TestTenantDefaultPolicy: a tenant whose default policy (the control
// database's tenants.validation_policy) is the stricter one gets its
// verdicts under it; another tenant gets the configured default, and a
// request's part policy outranks the tenant's default.
func TestTenantDefaultPolicy(t *testing.T) {
	t.Parallel()
	w := newAuthWorld(t, "SVC_DSS_VALIDATOR_POLICY_DIRECTORY="+examplePolicies)
	db, err := postgres.OpenWritable(postgres.Options{URL: w.admin})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), `UPDATE tenants SET validation_policy = 'strict' WHERE id = $1`, tenantA); err != nil {
		t.Fatal(err)
	}
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	sig, err := cades.Sign([]byte("contract"), cades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, auth string
		values     map[string][]string
		policy     string
		sub        verdict.SubIndication
	}{
		// No trust: the configured default reaches X.509 certificate
		// validation; the stricter policy refuses the level first.
		{"tenant A: its default, strict", "Bearer " + w.token(t, w.a, tenantA), nil, "strict", verdict.SubSigConstraintsFailure},
		{"tenant B: the configured default", "Bearer " + w.token(t, w.b, tenantB), nil, "default", verdict.SubNoCertificateChainFound},
		{"tenant A naming lax", "Bearer " + w.token(t, w.a, tenantA), map[string][]string{"policy": {"lax"}}, "lax", verdict.SubNoCertificateChainFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			res, body := postPolicy(t, w.url, tt.auth, sig, tt.values, nil)
			is.Equal(res.StatusCode, 200)
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal(body, &sum))
			is.Equal(sum.ValidationPolicy.Name, tt.policy)
			is.Equal(sum.Signatures[0].Indication, verdict.Indeterminate)
			is.Equal(sub(sum.Signatures[0]), tt.sub)
		})
	}
	t.Run("a tenant default the validator does not know: 502", func(t *testing.T) {
		// A validator of its own: the tenant's default is read once a TTL
		// (postgres.CachedControl), and tenant B's was read above.
		is := is.New(t)
		w := newAuthWorld(t, "SVC_DSS_VALIDATOR_POLICY_DIRECTORY="+examplePolicies)
		db, err := postgres.OpenWritable(postgres.Options{URL: w.admin})
		is.NoErr(err)
		defer db.Close()
		_, err = db.ExecContext(context.Background(), `UPDATE tenants SET validation_policy = 'gone' WHERE id = $1`, tenantB)
		is.NoErr(err)
		res, body := postPolicy(t, w.url, "Bearer "+w.token(t, w.b, tenantB), sig, nil, nil)
		is.Equal(res.StatusCode, 502)
		var p servertest.Problem
		is.NoErr(json.Unmarshal(body, &p))
		is.Equal(p.Type, "urn:svc-dss:problem:infrastructure-failure")
	})
}

// TestInvalidPolicyStopsStartUp: an unusable policy file stops the
// service, and the validate command, before anything starts, with exit
// status 2 and one line naming the file, the place in it and the problem.
func TestInvalidPolicyStopsStartUp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := write(t, dir, "bad.yaml", []byte("name: bad\nchecks:\n  signingTime: MAYBE\n"))
	twins := filepath.Join(dir, "twins")
	if err := os.Mkdir(twins, 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, twins, "a.yaml", []byte("name: same\n"))
	write(t, twins, "b.yaml", []byte("name: same\ndescription: another\n"))
	doc := write(t, dir, "doc.p7m", []byte("hello"))
	tests := []struct {
		name   string
		env    []string
		args   []string
		stderr string
	}{
		{"the default file", []string{"SVC_DSS_VALIDATOR_POLICY_DEFAULT=" + bad}, nil,
			"policy " + bad + `: checks.signingTime (line 3): "MAYBE" is not a level: FAIL, WARN, INFORM or IGNORE` + "\n"},
		{"a missing default file", []string{"SVC_DSS_VALIDATOR_POLICY_DEFAULT=" + filepath.Join(dir, "none.yaml")}, nil,
			"policy " + filepath.Join(dir, "none.yaml") + ": cannot be read: no such file or directory\n"},
		{"two policies of one name", []string{"SVC_DSS_VALIDATOR_POLICY_DIRECTORY=" + twins}, nil,
			"policy " + filepath.Join(twins, "b.yaml") + `: name: "same" is already the name of ` + filepath.Join(twins, "a.yaml") + "\n"},
		{"the directory's file, for the validate command", []string{"SVC_DSS_VALIDATOR_POLICY_DIRECTORY=" + dir}, []string{"validate", doc},
			"policy " + bad + `: checks.signingTime (line 3): "MAYBE" is not a level: FAIL, WARN, INFORM or IGNORE` + "\n"},
		{"--policy", nil, []string{"validate", doc, "--policy", bad},
			"validate: --policy: policy " + bad + `: checks.signingTime (line 3): "MAYBE" is not a level: FAIL, WARN, INFORM or IGNORE` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			code, out, stderr := command(t, append(offline(t), tt.env...), tt.args...)
			is.Equal(code, 2)
			is.Equal(out, "")
			is.Equal(stderr, tt.stderr)
		})
	}
}

// TestValidateCommandPolicy: --policy validates under the file's
// policy, which the summary names; without it, the configured default.
func TestValidateCommandPolicy(t *testing.T) {
	t.Parallel()
	srv := pki.Start(t)
	srv.SetClock(func() time.Time { return pki.ReferenceTime })
	dir := t.TempDir()
	sig, err := cades.Sign([]byte("contract"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSA, Level: cades.B,
		SigningTime: pki.ReferenceTime.Add(-24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	file := write(t, dir, "contract.p7m", sig)
	root := write(t, dir, "root.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.PKI.Root.Certificate.Raw}))
	env := append(offline(t), "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false")
	base := []string{"validate", file, "--at=" + pki.ReferenceTime.Format(time.RFC3339), "--trust-anchor", root}
	tests := []struct {
		name       string
		args       []string
		policy     string
		indication verdict.Indication
		sub        verdict.SubIndication
	}{
		{"the default", nil, "default", verdict.TotalPassed, ""},
		{"--policy strict", []string{"--policy", filepath.Join(examplePolicies, "strict.yaml")}, "strict", verdict.Indeterminate, verdict.SubSigConstraintsFailure},
		{"--policy lax", []string{"--policy", filepath.Join(examplePolicies, "lax.yaml")}, "lax", verdict.TotalPassed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			code, out, _ := command(t, env, append(base, tt.args...)...)
			is.Equal(code, 0)
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal([]byte(out), &sum))
			is.Equal(sum.ValidationPolicy.Name, tt.policy)
			is.Equal(sum.Signatures[0].Indication, tt.indication)
			is.Equal(sub(sum.Signatures[0]), tt.sub)
		})
	}
}
