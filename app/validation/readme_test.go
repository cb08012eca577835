package validation_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"go/format"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/matryer/is"

	registry "github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/sampleset"
)

// readmeSection is the README's section for importers; its first go
// block is the program TestREADMEProgram builds.
const readmeSection = "## Use it as a Go library"

// TestREADMEProgram (issue 18): the program of the README's section for
// importers builds outside this module, as an importer's own module
// would (a replace directive pointing at this checkout, nothing
// downloaded, no cgo), links none of notForImporters, and prints for a
// sample of each format the validator reads the sample's
// ValidationSummary as JSON; it fails clearly on a wrong command line, a
// missing file and a file that is no signature. The README's program
// therefore cannot drift from the front door without this test failing.
func TestREADMEProgram(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the README's program")
	}
	bin := buildREADMEProgram(t, readmeProgram(t))

	// The samples of fixtures/sampleset, made for a PKI that is never
	// asked: the README's program is offline.
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	m, files, err := sampleset.Build(p)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()

	// One attached sample per format: the program takes one file, so no
	// detached signature.
	// signatureFormat is the signature's own: a container's is that of
	// the signature inside.
	samples := []struct{ format, file, signatureFormat string }{
		{"CAdES", "cades-valid-B.p7m", "CAdES"},
		{"PAdES", "pades-valid-B.pdf", "PAdES"},
		{"XAdES", "xades-valid-B-enveloped.xml", "XAdES"},
		{"ASiC", "asic-s-cades-valid-LT.asics", "CAdES"},
		{"JAdES", "jades-valid-B-flattened.json", "JAdES"},
		// A bare time-stamp without its data: a time-stamp entry, no
		// signature.
		{"TST", "timestamp-no-data.tsr", ""},
	}
	// A format registered without a sample here would go untried.
	var covered []string
	for _, s := range samples {
		covered = append(covered, s.format)
	}
	if read := registry.Default().Names(); !slices.Equal(covered, read) {
		t.Errorf("the samples cover %q, the validator reads %q: add a sample of each format", covered, read)
	}
	for _, s := range samples {
		t.Run(s.format, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			i := slices.IndexFunc(m.Samples, func(x sampleset.Sample) bool { return x.File == s.file })
			is.True(i >= 0) // the sample is in fixtures/sampleset
			want := m.Samples[i]
			is.Equal(len(want.Detached), 0) // the program validates one file
			path := filepath.Join(dir, s.file)
			is.NoErr(os.WriteFile(path, files[s.file], 0o644))

			stdout, stderr, err := runREADMEProgram(t, bin, path)
			is.NoErr(err)        // the program failed
			is.Equal(stderr, "") // nothing said on success
			got := decodeSummary(t, stdout)

			digest := sha256.Sum256(files[s.file])
			is.Equal(got.DocumentName, s.file)
			is.Equal(got.DocumentSHA256, hex.EncodeToString(digest[:]))
			is.Equal(got.SignatureCount, want.Expected.SignatureCount)
			is.Equal(len(got.Signatures), got.SignatureCount)
			for _, sig := range got.Signatures {
				// A signature's indication, never empty nor a building block's.
				is.True(slices.Contains([]verdict.Indication{verdict.TotalPassed, verdict.TotalFailed, verdict.Indeterminate}, sig.Indication))
				is.True(strings.HasPrefix(sig.SignatureFormat, s.signatureFormat+"_"))
			}
			is.Equal(len(got.Timestamps), len(want.Expected.Timestamps))
			for _, e := range got.Timestamps {
				// A time-stamp's indication (5.4), never a process's.
				is.True(slices.Contains([]verdict.Indication{verdict.Passed, verdict.Failed, verdict.Indeterminate}, e.Indication))
			}
			// No list and no anchor is trusted, as the README says.
			is.True(!got.Valid)
		})
	}

	notSigned := filepath.Join(dir, "letter.txt")
	if err := os.WriteFile(notSigned, []byte("Dear reader,\nthis file is signed by nobody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.pdf")
	for _, tc := range []struct {
		name string
		args []string
		// says is what the message on standard error names.
		says string
	}{
		{"no argument", nil, "usage"},
		{"two arguments", []string{notSigned, notSigned}, "usage"},
		{"missing file", []string{missing}, missing},
		{"not a signature", []string{notSigned}, "unreadable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			stdout, stderr, err := runREADMEProgram(t, bin, tc.args...)
			_, exited := errors.AsType[*exec.ExitError](err)
			is.True(exited)      // the program exits non-zero
			is.Equal(stdout, "") // no summary
			is.True(strings.Contains(stderr, tc.says))
		})
	}
}

// readmeProgram returns the first go block of the README's section for
// importers: the lines between its fence lines, the section ending at
// the next heading of its level or above.
func readmeProgram(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var block []string
	in, fenced, found := false, false, false
	for line := range strings.Lines(string(raw)) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case fenced && line == "```":
			if found {
				return []byte(strings.Join(block, "\n") + "\n")
			}
			fenced = false
		case fenced:
			if found {
				block = append(block, line)
			}
		case strings.HasPrefix(line, "```"):
			fenced = true
			found = in && line == "```go"
		case line == readmeSection:
			in = true
		case in && (strings.HasPrefix(line, "## ") || strings.HasPrefix(line, "# ")):
			t.Fatalf("README: the section %q has no go block", readmeSection)
		}
	}
	if found {
		t.Fatalf("README: the go block of %q is not closed", readmeSection)
	}
	t.Fatalf("README: no section %q with a go block", readmeSection)
	return nil
}

// buildREADMEProgram builds src as the main package of a module of its
// own that requires this repository through a replace directive, as an
// importer's module would, and checks what it links. Nothing is
// downloaded: the module cache holds what this repository needs, and
// go.sum is this repository's. It returns the binary.
func buildREADMEProgram(t *testing.T, src []byte) string {
	t.Helper()
	if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
		t.Errorf("README: the program of %q is not gofmt'd (%v)", readmeSection, err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goSum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	// The importer's module needs at least this repository's Go version.
	goLine := ""
	for line := range strings.Lines(string(goMod)) {
		if strings.HasPrefix(line, "go ") {
			goLine = line
			break
		}
	}
	if goLine == "" {
		t.Fatal("go.mod has no go directive")
	}
	dir := t.TempDir()
	mod := "module example.com/readme\n\n" + goLine +
		"\nrequire github.com/svc-dss/dss v0.0.0\n\nreplace github.com/svc-dss/dss => " + root + "\n"
	for name, data := range map[string][]byte{"main.go": src, "go.mod": []byte(mod), "go.sum": goSum} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// -mod=mod lets the go command complete the module's requirements
	// from this repository's, which the replace directive brings; with
	// GOPROXY=off it finds them in the module cache or fails.
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0")
	goCmd := func(args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("README's program: go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	bin := filepath.Join(dir, "validate")
	goCmd("build", "-o", bin, ".")
	goCmd("vet", ".")

	deps := strings.Fields(goCmd("list", "-deps", "."))
	if len(deps) == 0 || deps[len(deps)-1] != "example.com/readme" {
		t.Fatalf("README's program: go list -deps: want its dependencies, got %q", deps)
	}
	for _, dep := range deps {
		if p, why, ok := linkedFrom(dep, notForImporters); ok {
			t.Errorf("README's program links %s (%s: %s)", dep, p, why)
		}
	}
	return bin
}

// runREADMEProgram runs the README's program with args and returns what
// it wrote.
func runREADMEProgram(t *testing.T, bin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// decodeSummary decodes the program's output as one ValidationSummary and
// nothing else: a field the summary does not have, an indication it does
// not declare or anything after it fails.
func decodeSummary(t *testing.T, stdout string) verdict.ValidationSummary {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	var sum verdict.ValidationSummary
	if err := dec.Decode(&sum); err != nil {
		t.Fatalf("the output is no ValidationSummary: %v\n%s", err, stdout)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		t.Fatalf("more than one summary in the output (%v)\n%s", err, stdout)
	}
	return sum
}
