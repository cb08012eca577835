package xmldsig_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/svc-dss/dss/fixtures/realworld"
)

// corpusDir is the shared trust corpus (LOTL/TL samples).
var corpusDir = filepath.Join(realworld.Dir(), "trust")

// requireCorpus returns corpusDir or skips the test when it is absent.
func requireCorpus(tb testing.TB) string {
	tb.Helper()
	return realworld.Trust(tb)
}

// corpusXMLFiles lists every *.xml file under the corpus, relative paths.
func corpusXMLFiles(tb testing.TB) []string {
	tb.Helper()
	dir := requireCorpus(tb)
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".xml") {
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("walk corpus: %v", err)
	}
	return files
}

// requireTool returns the path of a command line tool the tests compare
// against. The test environment installs them, so a missing tool fails the
// test instead of silently skipping the comparison.
func requireTool(tb testing.TB, name string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		tb.Fatalf("%s not found: install it with `apt-get install -y libxml2-utils xmlsec1` (Debian)", name)
	}
	return path
}

// run executes a tool and returns its standard output.
func run(tb testing.TB, name string, args ...string) ([]byte, []byte, error) {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.Bytes(), stderr.Bytes(), err
}

// firstDiff describes where two byte slices first differ, for test output.
func firstDiff(got, want []byte) string {
	n := min(len(got), len(want))
	i := 0
	for i < n && got[i] == want[i] {
		i++
	}
	lo := max(0, i-60)
	return "at byte " + strconv.Itoa(i) + "\n got: " + quoteSlice(got, lo, i+60) + "\nwant: " + quoteSlice(want, lo, i+60)
}

func quoteSlice(b []byte, lo, hi int) string {
	hi = min(hi, len(b))
	if lo > hi {
		return `""`
	}
	return strings.ReplaceAll(string(b[lo:hi]), "\n", `\n`)
}
