package xades

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

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
// nest or buffer without end are refused, each within two seconds (the
// 40 MB text is refused once 16 MB of it are read, in about half a
// second on an idle machine).
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
		start := time.Now()
		_, err := parse([]byte(tc.data))
		if err == nil {
			t.Errorf("%s: parsed", tc.name)
			continue
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: refused in %v", tc.name, d)
		}
	}
	if !hasDoctype([]byte(laughs.String())) || hasDoctype([]byte(`<a><!DOCTYPE x></a>`)) {
		t.Error("hasDoctype looks beyond the prolog, or misses a DOCTYPE in it")
	}
	if _, err := parse(bytes.Repeat([]byte(" "), MaxDocumentSize+1)); err == nil {
		t.Error("a document over MaxDocumentSize parsed")
	}
}
