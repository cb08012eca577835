package validation_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// processCall is a call of the validation process or of its plan, the
// steps only the front door takes for a document.
var processCall = regexp.MustCompile(`\betsi\.(Validate|ValidateTimestamp|NewPlan)\(`)

// TestOnePathToTheProcess: outside the process's own package, only the
// front door (app/validation) calls it; the servers, the commands and the
// service around validation go through Validator.Validate, so that no
// second path to etsi.Validate can rot (issue 18). Tests may call it.
func TestOnePathToTheProcess(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	var callers []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		dir := filepath.ToSlash(filepath.Dir(rel))
		if dir == "domain/etsi" || dir == "app/validation" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if processCall.Match(data) {
			callers = append(callers, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(callers) > 0 {
		t.Errorf("the validation process is called outside the front door: %v", callers)
	}
}
