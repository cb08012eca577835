package formats_test

import (
	"bytes"
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/ports"
)

// fakeReader reads every document it is given as one signature, and
// counts them.
type fakeReader struct{ reads int }

func (r *fakeReader) Read(context.Context, ports.Document) ([]ades.Signature, error) {
	r.reads++
	return []ades.Signature{{ID: "fake-1"}}, nil
}

func fake(r *fakeReader) formats.Format {
	return formats.Format{Name: "FAKE", Detect: func(data []byte) bool { return bytes.HasPrefix(data, []byte("FAKE")) }, Reader: r}
}

func TestDefault(t *testing.T) {
	t.Parallel()
	reg := formats.Default()
	tests := []struct {
		name string
		data string
		want string // "" for no format
	}{
		{"DER SignedData", "\x30\x82\x01\x00\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x07\x02", "CAdES"},
		{"BER SignedData", "\x30\x80\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x07\x02", "CAdES"},
		{"BER time-stamp token (SignedData of a TSTInfo)", "\x30\x80\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x07\x02\xa0\x80\x30\x80\x02\x01\x03\x31\x00\x30\x80\x06\x0b\x2a\x86\x48\x86\xf7\x0d\x01\x09\x10\x01\x04", "TST"},
		{"time-stamp response (a status, then the token)", "\x30\x2a\x30\x03\x02\x01\x00\x30\x80\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x07\x02\xa0\x80\x30\x80\x02\x01\x03\x31\x00\x30\x80\x06\x0b\x2a\x86\x48\x86\xf7\x0d\x01\x09\x10\x01\x04", "TST"},
		{"PEM PKCS #7, even one that does not decode", "\n-----BEGIN PKCS7-----\nnot base64\n", "CAdES"},
		{"PDF", "%PDF-1.7\n", "PAdES"},
		{"XML signature", `<?xml version="1.0"?><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/>`, "XAdES"},
		{"XML without a signature namespace", `<?xml version="1.0"?><a/>`, ""},
		{"PDF after leading bytes", strings.Repeat(" ", 1000) + "%PDF-2.0", "PAdES"},
		{"PDF header past the first kilobyte", strings.Repeat(" ", 1024) + "%PDF-2.0", ""},
		{"a SEQUENCE of something else", "\x30\x03\x02\x01\x01", ""},
		{"text", "hello, world", ""},
		{"nothing", "", ""},
		{"JWS compact", "eyJhbGciOiJSUzI1NiJ9.cGF5bG9hZA.c2ln", "JAdES"},
		{"JWS JSON", "\n{\"payload\":\"cA\",\"protected\":\"e30\",\"signature\":\"cw\"}", "JAdES"},
		{"JSON that is no JWS", `{"title": "Hello World!"}`, ""},
		{"three dotted parts without a JOSE header", "aGVsbG8.d29ybGQ.IQ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			f, ok := reg.Detect([]byte(tt.data))
			is.Equal(ok, tt.want != "")
			is.Equal(f.Name, tt.want)
		})
	}
	is := is.New(t)
	is.Equal(reg.Names(), []string{"CAdES", "PAdES", "XAdES", "ASiC", "JAdES", "TST"})
	is.Equal(reg.List(), "CAdES, PAdES, XAdES, ASiC, JAdES, TST")
	is.Equal(len(reg.Readers()), 6)
}

// TestOnly: a subset keeps the registry's order whatever the order and
// case of the names; a name not registered is refused with the list.
func TestOnly(t *testing.T) {
	t.Parallel()
	reg := formats.Default().With(fake(&fakeReader{}))
	tests := []struct {
		names []string
		want  string // the subset's List, or the error
	}{
		{[]string{"PAdES"}, "PAdES"},
		{[]string{"fake", "cades"}, "CAdES, FAKE"},
		{[]string{"PAdES", "PAdES"}, "PAdES"},
		{[]string{"PAdES", "EAdES"}, `no format "EAdES" is registered (CAdES, PAdES, XAdES, ASiC, JAdES, TST, FAKE)`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.names, ","), func(t *testing.T) {
			is := is.New(t)
			sub, err := reg.Only(tt.names...)
			if err != nil {
				is.Equal(err.Error(), tt.want)
				return
			}
			is.Equal(sub.List(), tt.want)
		})
	}
}

// TestReaders: each reader reads only what its format's Detect claims;
// the rest is not its format, unread.
func TestReaders(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	r := &fakeReader{}
	reg := formats.Default().With(fake(r))
	is.Equal(reg.List(), "CAdES, PAdES, XAdES, ASiC, JAdES, TST, FAKE")
	readers := reg.Readers()
	is.Equal(len(readers), 7)
	fakes := readers[len(readers)-1]

	_, err := fakes.Read(context.Background(), ports.Document{Data: []byte("%PDF-1.7")})
	is.True(errors.Is(err, ports.ErrNotThisFormat))
	is.Equal(r.reads, 0) // not given to the reader
	sigs, err := fakes.Read(context.Background(), ports.Document{Data: []byte("FAKE signature")})
	is.NoErr(err)
	is.Equal(sigs[0].ID, "fake-1")
	is.Equal(r.reads, 1)

	_, err = readers[0].Read(context.Background(), ports.Document{Data: []byte("FAKE signature")})
	is.True(errors.Is(err, ports.ErrNotThisFormat)) // CAdES does not claim it

	f, ok := reg.Detect([]byte("FAKE"))
	is.True(ok)
	is.Equal(f.Name, "FAKE")

	// Every reader reads contents: a reader that is no
	// ports.ContentsReader gives its signatures and no time-stamp entry.
	c, err := fakes.(ports.ContentsReader).ReadContents(context.Background(), ports.Document{Data: []byte("FAKE signature")})
	is.NoErr(err)
	is.Equal(len(c.Signatures), 1)
	is.Equal(len(c.Timestamps), 0)
	_, err = fakes.(ports.ContentsReader).ReadContents(context.Background(), ports.Document{Data: []byte("%PDF-1.7")})
	is.True(errors.Is(err, ports.ErrNotThisFormat))
	is.Equal(r.reads, 2)
}

func TestNewRefusesWiringMistakes(t *testing.T) {
	t.Parallel()
	detect := func([]byte) bool { return true }
	tests := []struct {
		name    string
		formats []formats.Format
	}{
		{"no name", []formats.Format{{Detect: detect, Reader: &fakeReader{}}}},
		{"no detector", []formats.Format{{Name: "X", Reader: &fakeReader{}}}},
		{"no reader", []formats.Format{{Name: "X", Detect: detect}}},
		{"a name twice", []formats.Format{fake(&fakeReader{}), fake(&fakeReader{})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("New did not panic")
				}
			}()
			formats.New(tt.formats...)
		})
	}
	t.Run("CAdES again", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Error("With did not panic")
			}
		}()
		formats.Default().With(formats.Format{Name: "CAdES", Detect: detect, Reader: &fakeReader{}})
	})
}

// TestRegistryIsTheOnlyListOfReaders (issue 17): a format plugs in by
// its package and one entry in Default, nowhere else. Every package
// under adapters/formats that declares a document reader (a method
// Read(context.Context, ports.Document)) is found here by its source;
// outside its own package and the registry, no non-test Go file of the
// module names the reader's type or a function of its package that
// returns it, and none lists readers or formats of its own.
func TestRegistryIsTheOnlyListOfReaders(t *testing.T) {
	t.Parallel()
	root, module := moduleRoot(t)
	const registry = "adapters/formats/formats.go"

	type file struct {
		rel string
		ast *ast.File
	}
	var files []file
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files = append(files, file{filepath.ToSlash(rel), f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// The reader packages and, in each, what gives a reader: its reader
	// types and the functions returning one.
	readers := map[string][]string{} // import path -> identifiers
	for _, f := range files {
		if !strings.HasPrefix(f.rel, "adapters/formats/") || f.rel == registry {
			continue
		}
		pkg := module + "/" + filepath.ToSlash(filepath.Dir(f.rel))
		for _, d := range f.ast.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "Read" || !takesDocument(fn.Type) {
				continue
			}
			readers[pkg] = append(readers[pkg], typeName(fn.Recv.List[0].Type))
		}
	}
	for _, f := range files {
		pkg := module + "/" + filepath.ToSlash(filepath.Dir(f.rel))
		types, ok := readers[pkg]
		if !ok {
			continue
		}
		for _, d := range f.ast.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Type.Results == nil {
				continue
			}
			for _, r := range fn.Type.Results.List {
				if slices.Contains(types, typeName(r.Type)) {
					readers[pkg] = append(readers[pkg], fn.Name.Name)
				}
			}
		}
	}
	for _, want := range []string{"cades", "pades"} {
		if _, ok := readers[module+"/adapters/formats/"+want]; !ok {
			t.Fatalf("no reader found in adapters/formats/%s: the test no longer finds readers (found %v)", want, readers)
		}
	}

	for _, f := range files {
		pkg := module + "/" + filepath.ToSlash(filepath.Dir(f.rel))
		imported := map[string]string{} // local name -> import path
		for _, im := range f.ast.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			name := path[strings.LastIndex(path, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imported[name] = path
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				x, ok := n.X.(*ast.Ident)
				if !ok {
					return true
				}
				path := imported[x.Name]
				switch {
				case slices.Contains(readers[path], n.Sel.Name) && path != pkg && f.rel != registry:
					t.Errorf("%s: %s.%s: a document reader is named outside its package and the registry (%s)", fset.Position(n.Pos()), x.Name, n.Sel.Name, registry)
				case path == module+"/adapters/formats" && (n.Sel.Name == "New" || n.Sel.Name == "Format"):
					t.Errorf("%s: %s.%s: a list of formats outside the registry (%s)", fset.Position(n.Pos()), x.Name, n.Sel.Name, registry)
				}
			case *ast.CompositeLit:
				if a, ok := n.Type.(*ast.ArrayType); ok && len(n.Elts) > 0 {
					if s, ok := a.Elt.(*ast.SelectorExpr); ok && s.Sel.Name == "DocumentReader" {
						t.Errorf("%s: a list of document readers outside the registry (%s)", fset.Position(n.Pos()), registry)
					}
				}
			}
			return true
		})
	}
}

// takesDocument reports whether a method's parameters are a context and
// a ports.Document, as ports.DocumentReader's Read.
func takesDocument(ft *ast.FuncType) bool {
	var types []string
	for _, p := range ft.Params.List {
		s, ok := p.Type.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, _ := s.X.(*ast.Ident)
		for range max(len(p.Names), 1) {
			if x != nil {
				types = append(types, x.Name+"."+s.Sel.Name)
			}
		}
	}
	return slices.Equal(types, []string{"context.Context", "ports.Document"})
}

// typeName is the name of a type expression T or *T; "" for others.
func typeName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// moduleRoot returns the directory of go.mod and the module path.
func moduleRoot(t *testing.T) (string, string) {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for line := range strings.SplitSeq(string(b), "\n") {
				if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return dir, strings.TrimSpace(m)
				}
			}
			t.Fatal("go.mod names no module")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}
