package main

import (
	"bytes"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// environ is a configuration that reaches nothing: an empty cache of
// its own and lists on a port nothing answers.
func environ(t *testing.T) []string {
	return []string{
		"SVC_DSS_TL_CACHE=" + t.TempDir(),
		"SVC_DSS_VALIDATOR_LOTL_URL=http://127.0.0.1:9/eu-lotl.xml",
		"SVC_DSS_VALIDATOR_CH_TL_URL=http://127.0.0.1:9/tsl-ch.xml",
	}
}

// executableAt is os.Executable for an executable at path.
func executableAt(path string) func() (string, error) {
	return func() (string, error) { return path, nil }
}

// handOver records a hand-over and fails it with err, as a failed exec
// would return.
type handOver struct {
	path          string
	argv, environ []string
	err           error
}

func (h *handOver) exec(path string, argv, environ []string) error {
	h.path, h.argv, h.environ = path, argv, environ
	return h.err
}

// document writes a PAdES-LT of the fixture PKI, with its revocation data
// in the document security store, and the PKI's root; at is a time at
// which it passes offline.
func document(t *testing.T) (file, root, at string) {
	t.Helper()
	p, err := pki.New("http://127.0.0.1:9") // nothing answers there
	if err != nil {
		t.Fatal(err)
	}
	signedAt := pki.ReferenceTime.Add(-24 * time.Hour)
	d := pades.New(1)
	if err := d.Sign(pades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.T, SigningTime: signedAt}); err != nil {
		t.Fatal(err)
	}
	if err := d.AddDSS(pades.DSSOptions{PKI: p, At: signedAt.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file, root = filepath.Join(dir, "lt.pdf"), filepath.Join(dir, "root.pem")
	if err := os.WriteFile(file, d.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(root, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.Root.Certificate.Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	return file, root, pki.ReferenceTime.Format(time.RFC3339)
}

// TestValidateRunsHere: validate runs in this executable, nothing is
// handed over, and the document is judged.
func TestValidateRunsHere(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	file, root, at := document(t)
	h := &handOver{}
	var out, errOut bytes.Buffer
	code := run(executableAt("/opt/svc/validator"), []string{"validator", "validate", file, "--offline", "--at", at, "--trust-anchor", root}, environ(t), &out, &errOut, h.exec)
	is.Equal(code, 0)
	is.Equal(h.path, "") // nothing handed over
	var sum verdict.ValidationSummary
	is.NoErr(json.Unmarshal(out.Bytes(), &sum))
	is.Equal(len(sum.Signatures), 1)
	is.Equal(sum.Signatures[0].SignatureFormat, "PAdES_BASELINE_LT")
	is.Equal(sum.Signatures[0].Indication, verdict.Indication("TOTAL_PASSED"))
}

// TestValidateUsage: validate's usage errors are its own, as the
// service's executable gives them (exit 2, the usage on stderr).
func TestValidateUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no file", []string{"validate"}, "usage: validator"},
		{"two files", []string{"validate", "a.pdf", "b.pdf"}, `validate: one file only: unexpected argument "b.pdf"`},
		{"an unknown flag", []string{"validate", "a.pdf", "--json"}, "flag provided but not defined: -json"},
		{"an unknown configuration flag", []string{"--json", "validate", "a.pdf"}, "flag provided but not defined: -json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			h := &handOver{}
			var out, errOut bytes.Buffer
			code := run(executableAt("/opt/svc/validator"), append([]string{"validator"}, tc.args...), environ(t), &out, &errOut, h.exec)
			is.Equal(code, 2)
			is.Equal(out.String(), "")
			is.Equal(h.path, "")
			is.True(strings.Contains(errOut.String(), tc.stderr)) // names the problem
		})
	}
}

// TestHandOver: every other use, the service included, is handed to
// validator-server beside this executable, with the arguments and the
// environment as given; a hand-over that returns has failed, and says
// why (exit 1).
func TestHandOver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	server := filepath.Join(dir, Server)
	if err := os.WriteFile(server, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"SVC_DSS_VALIDATOR_PORT=8090"}
	for _, args := range [][]string{
		nil,
		{"--dev"},
		{"--config", "c.yaml"},
		{"-h"},
		{"trust", "status"},
		{"--config", "c.yaml", "trust", "refresh"},
		{"db", "migrate"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			h := &handOver{err: errors.New("starting it failed")}
			var out, errOut bytes.Buffer
			code := run(executableAt(filepath.Join(dir, "validator")), append([]string{"validator"}, args...), env, &out, &errOut, h.exec)
			is.Equal(code, 1)
			is.Equal(h.path, server)
			is.Equal(h.argv, append([]string{server}, args...))
			is.Equal(h.environ, env)
			is.Equal(out.String(), "")
			is.Equal(errOut.String(), "validator: starting it failed\n")
		})
	}
}

// TestHandOverWithoutServer: without validator-server beside it, the
// executable says where it looked (exit 1).
func TestHandOverWithoutServer(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	h := &handOver{}
	var out, errOut bytes.Buffer
	code := run(executableAt(filepath.Join(dir, "validator")), []string{"validator", "trust", "status"}, nil, &out, &errOut, h.exec)
	is.Equal(code, 1)
	is.Equal(h.path, "")
	is.Equal(errOut.String(), "validator: validator-server is not beside "+filepath.Join(dir, "validator")+
		": stat "+filepath.Join(dir, Server)+": no such file or directory\n")
}

// TestHandOverWithoutSelf: when the executable cannot find itself, it
// says so (exit 1); validate does not need to know.
func TestHandOverWithoutSelf(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	lost := func() (string, error) { return "", errors.New("no /proc") }
	h := &handOver{}
	var out, errOut bytes.Buffer
	code := run(lost, []string{"validator", "trust", "status"}, nil, &out, &errOut, h.exec)
	is.Equal(code, 1)
	is.Equal(h.path, "")
	is.Equal(errOut.String(), "validator: cannot find validator-server: no /proc\n")
	errOut.Reset()
	code = run(lost, []string{"validator", "validate"}, environ(t), &out, &errOut, h.exec)
	is.Equal(code, 2) // its own usage error: the hand-over was never asked for
	is.True(strings.Contains(errOut.String(), "usage: validator"))
}

// TestDevHandedOver: development mode, asked before the command or
// after it, is the service's executable's: validate is handed over as
// given. A failed hand-over is the error of development mode's set-up
// (exit 1).
func TestDevHandedOver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	server := filepath.Join(dir, Server)
	if err := os.WriteFile(server, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--dev", "validate", "a.pdf"},
		{"validate", "a.pdf", "--dev"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			h := &handOver{err: errors.New("starting it failed")}
			var out, errOut bytes.Buffer
			code := run(executableAt(filepath.Join(dir, "validator")), append([]string{"validator"}, args...), environ(t), &out, &errOut, h.exec)
			is.Equal(code, 1)
			is.Equal(h.argv, append([]string{server}, args...))
			is.Equal(out.String(), "")
			is.True(strings.Contains(errOut.String(), `"msg":"development trust data failed","error":"starting it failed"`))
		})
	}
}

// TestLinksNoServer: the executable links the validate command and the
// validation library, none of the service: that is what it is for
// (docs/decisions/0044).
func TestLinksNoServer(t *testing.T) {
	if testing.Short() {
		t.Skip("go list: not in -short")
	}
	t.Parallel()
	list := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	deps, serverDeps := list("."), list("../validator")
	for _, server := range []string{
		"github.com/labstack/echo/v4",
		"github.com/lib/pq",
		"github.com/jmoiron/sqlx",
		"github.com/redis/go-redis/v9",
		"github.com/zitadel/oidc/v3/pkg/client/rp",
		"github.com/go-co-op/gocron/v2",
		"github.com/signintech/gopdf",
		"github.com/miekg/pkcs11",
		"html/template",
		"github.com/svc-dss/dss/app/validator",
		"github.com/svc-dss/dss/app/control",
		"github.com/svc-dss/dss/adapters/metrics",
	} {
		if !slices.Contains(serverDeps, server) {
			t.Errorf("the service no longer links %s: the list is out of date", server)
		}
		if slices.Contains(deps, server) {
			t.Errorf("links %s", server)
		}
	}
	if !slices.Contains(deps, "github.com/svc-dss/dss/servers/internal/validatecmd") {
		t.Error("does not link the validate command")
	}
}

// TestExecutables: built as the image builds them, the validator
// executable answers validate exactly as validator-server does, and
// hands the rest over: the same output and exit code.
func TestExecutables(t *testing.T) {
	if testing.Short() {
		t.Skip("go build: not in -short")
	}
	t.Parallel()
	dir := t.TempDir()
	front, server := filepath.Join(dir, "validator"), filepath.Join(dir, Server)
	for bin, pkg := range map[string]string{front: ".", server: "../validator"} {
		build := exec.Command("go", "build", "-trimpath", "-o", bin, pkg)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	file, root, at := document(t)
	env := environ(t)
	runBin := func(bin string, args ...string) (int, string, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errOut.String()
	}
	for _, args := range [][]string{
		{"validate", file, "--offline", "--at", at, "--trust-anchor", root},
		{"validate", file, "--offline", "--at", at, "--lang", "de"},
		{"validate", filepath.Join(dir, "missing.pdf")},
		{"trust", "status", "--at", at},
		{"-h"},
		{"validate", file, "--dev"}, // a production build refuses development mode
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			is := is.New(t)
			code, out, errOut := runBin(front, args...)
			wantCode, wantOut, wantErr := runBin(server, args...)
			is.Equal(code, wantCode)
			is.Equal(out, wantOut)
			is.Equal(withoutTimes(errOut), withoutTimes(wantErr))
		})
	}
}

// withoutTimes drops the "time" of each JSON log line.
func withoutTimes(logs string) string {
	var lines []string
	for l := range strings.Lines(logs) {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil {
			delete(m, "time")
			b, _ := json.Marshal(m)
			l = string(b)
		}
		lines = append(lines, strings.TrimSpace(l))
	}
	return strings.Join(lines, "\n")
}
