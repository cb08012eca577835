package xades

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

func TestDetect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		data string
		want bool
	}{
		{"enveloping signature", `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/>`, true},
		{"BOM and white space", "\xEF\xBB\xBF \n<?xml version=\"1.0\"?><a xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\"/>", true},
		{"XML without XMLDSig", `<a/>`, false},
		{"a PDF mentioning the namespace", "%PDF-1.7 http://www.w3.org/2000/09/xmldsig#", false},
		{"CMS", "\x30\x82\x01\x00", false},
		{"empty", "", false},
	} {
		if got := Detect([]byte(tc.data)); got != tc.want {
			t.Errorf("%s: Detect = %t, want %t", tc.name, got, tc.want)
		}
	}
}

// TestParseRefusesBombs: the documents that make XML readers expand,
// nest or buffer without end are refused, with the memory they make the
// reader allocate bounded by the input's size (the 40 MB text is refused
// once 16 MB of it are read). How fast is BenchmarkRefuseBombs's to say:
// a test does not time.
func TestParseRefusesBombs(t *testing.T) {
	t.Parallel()
	var laughs strings.Builder
	laughs.WriteString(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">`)
	for i := 1; i <= 9; i++ {
		laughs.WriteString(`<!ENTITY lol` + string(rune('0'+i)) + ` "`)
		for range 10 {
			laughs.WriteString(`&lol` + string(rune('0'+i-1)) + `;`)
		}
		laughs.WriteString(`">`)
	}
	laughs.WriteString(`]><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#">&lol9;</ds:Signature>`)
	deep := strings.Repeat("<a>", 100_000) + strings.Repeat("</a>", 100_000)
	text := `<a xmlns:ds="http://www.w3.org/2000/09/xmldsig#">` + strings.Repeat("x", 40<<20) + `</a>`
	for _, tc := range []struct {
		name string
		data string
		want error // nil: any error
	}{
		{"billion laughs", laughs.String(), nil},
		{"external entity", `<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>`, nil},
		{"DOCTYPE after a comment", `<!-- c --><!DOCTYPE a><a/>`, nil},
		{"100,000-deep nesting", deep, xmldsig.ErrLimitExceeded},
		{"40 MB text node", text, xmldsig.ErrLimitExceeded},
	} {
		data := []byte(tc.data)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := parse(data)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("%s: parsed", tc.name)
			continue
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		// Other tests run meanwhile: the bound is loose, the order of
		// magnitude is what it holds (an expansion is thousands of times
		// its input).
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(4*len(data)+64<<20) {
			t.Errorf("%s: %d bytes allocated for %d bytes of input", tc.name, alloc, len(data))
		}
	}
	if !hasDoctype([]byte(laughs.String())) || hasDoctype([]byte(`<a><!DOCTYPE x></a>`)) {
		t.Error("hasDoctype looks beyond the prolog, or misses a DOCTYPE in it")
	}
	if _, err := parse(bytes.Repeat([]byte(" "), MaxDocumentSize+1)); err == nil {
		t.Error("a document over MaxDocumentSize parsed")
	}
}

// BenchmarkRefuseBombs times the refusal of each bomb of
// TestParseRefusesBombs.
func BenchmarkRefuseBombs(b *testing.B) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"deep-100000", []byte(strings.Repeat("<a>", 100_000) + strings.Repeat("</a>", 100_000))},
		{"text-40MB", []byte(`<a xmlns:ds="http://www.w3.org/2000/09/xmldsig#">` + strings.Repeat("x", 40<<20) + `</a>`)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parse(tc.data); err == nil {
					b.Fatal("parsed")
				}
			}
		})
	}
}
