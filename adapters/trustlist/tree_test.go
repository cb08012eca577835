package trustlist_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/adapters/trustlist"
)

// TestParseTreeEqualsParse holds the two entry points to one result: the
// list read from the signature checker's tree is the list read from the
// bytes, for every XML file of the corpus.
func TestParseTreeEqualsParse(t *testing.T) {
	t.Parallel()
	dir := corpusDir(t)
	var compared int
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".xml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		want, werr := trustlist.Parse(data)
		tree, perr := xmldsig.ParseDocument(data)
		if perr != nil {
			if werr == nil {
				t.Logf("%s: parses as a list but not as a signed document: %v", path, perr)
			}
			return nil
		}
		got, gerr := trustlist.ParseTree(tree)
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%s: Parse error %v, ParseTree error %v", path, werr, gerr)
			return nil
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ParseTree differs from Parse", path)
		}
		compared++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d documents compared", compared)
	if compared < 100 {
		t.Errorf("only %d documents compared", compared)
	}
}
