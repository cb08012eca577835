package xmldsig_test

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

// Each limit refuses a document one over it, with a *LimitError naming it,
// and accepts one at it.
func TestParseDocumentLimits(t *testing.T) {
	t.Parallel()
	lim := xmldsig.Limits{MaxElements: 4, MaxDepth: 3, MaxAttributes: 3, MaxTextBytes: 10}
	tests := []struct {
		name string
		doc  string
		want string // the LimitError's What; "" to accept
	}{
		{"at every limit", `<r a="12"><b c="3" d="4"><e>5678</e></b><!---->x<f/></r>`, ""},
		{"elements", `<r><a/><a/><a/><a/></r>`, "elements"},
		{"depth", `<r><a><b><c/></b></a></r>`, "depth"},
		{"attributes", `<r a=""><b c=""/><b d="" e=""/></r>`, "attributes"},
		{"namespace declarations count as attributes", `<r xmlns="u" xmlns:p="v" p:a="" p:b=""/>`, "attributes"},
		{"text, one node", `<r>12345678901</r>`, "text bytes"},
		{"text, in total", `<r>123456<a/>78901</r>`, "text bytes"},
		{"attribute values", `<r a="123456" b="78901"/>`, "text bytes"},
		{"comments", `<r><!--123456--><!--78901--></r>`, "text bytes"},
		{"processing instructions", `<r><?p 123456?><?p 78901?></r>`, "text bytes"},
		{"a start tag longer than MaxTagBytes", `<r><a` + strings.Repeat(" ", xmldsig.MaxTagBytes) + `/></r>`, "tag bytes"},
		{"an end tag longer than MaxTagBytes", `<r><a></a` + strings.Repeat(" ", xmldsig.MaxTagBytes) + `></r>`, "tag bytes"},
		{"a tag of MaxTagBytes", `<r><a` + strings.Repeat(" ", xmldsig.MaxTagBytes-4) + `/></r>`, ""},
		{"CDATA", `<r><![CDATA[12345678901]]></r>`, "text bytes"},
		{"white space between elements is text", "<r>\n     <a/>\n     </r>", "text bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := xmldsig.ParseDocumentLimits([]byte(tt.doc), lim)
			var le *xmldsig.LimitError
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want == "":
			case !errors.As(err, &le) || !errors.Is(err, xmldsig.ErrLimitExceeded):
				t.Fatalf("got %v, want a *LimitError for %s", err, tt.want)
			case le.What != tt.want:
				t.Fatalf("got %v, want the limit on %s", err, tt.want)
			}
		})
	}
}

// A zero field takes the package default.
func TestParseDocumentDefaultLimits(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("<a>", xmldsig.MaxDepth+1) + strings.Repeat("</a>", xmldsig.MaxDepth+1)
	tests := []struct {
		name string
		doc  string
		lim  xmldsig.Limits
		want xmldsig.LimitError
	}{
		{"depth", deep, xmldsig.Limits{MaxElements: 1000}, xmldsig.LimitError{What: "depth", Max: xmldsig.MaxDepth}},
		{"elements", "<r>" + strings.Repeat("<a/>", xmldsig.MaxElements) + "</r>", xmldsig.Limits{MaxDepth: 2}, xmldsig.LimitError{What: "elements", Max: xmldsig.MaxElements}},
		{"attributes", "<r>" + strings.Repeat(`<a b=""/>`, xmldsig.MaxAttributes+1) + "</r>", xmldsig.Limits{MaxElements: xmldsig.MaxAttributes + 2}, xmldsig.LimitError{What: "attributes", Max: xmldsig.MaxAttributes}},
		{"element attributes", "<r" + strings.Repeat(` a=""`, xmldsig.MaxElementAttributes+1) + "/>", xmldsig.Limits{MaxAttributes: 1000}, xmldsig.LimitError{What: "element attributes", Max: xmldsig.MaxElementAttributes}},
		{"text bytes", "<r>" + strings.Repeat("x", xmldsig.MaxTextBytes+1) + "</r>", xmldsig.Limits{}, xmldsig.LimitError{What: "text bytes", Max: xmldsig.MaxTextBytes}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := xmldsig.ParseDocumentLimits([]byte(tt.doc), tt.lim)
			var le *xmldsig.LimitError
			if !errors.As(err, &le) || *le != tt.want {
				t.Fatalf("got %v, want %v", err, &tt.want)
			}
		})
	}
}

// Hostile documents the size of a trusted list that passes the size check
// are refused while they are tokenised, before a tree of them exists: the
// allocation stays a fraction of what the tree would take. (Before the
// limits were checked while tokenising, the 63 MB of empty elements took
// 4.0 GiB of allocation and 2.4 GiB of heap in use; see the figures this
// test logs for today's.) Not parallel: the figures are process-wide.
func TestParseDocumentHostile(t *testing.T) {
	const size = 63_000_000
	inRoot := func(open, fill, end string) []byte {
		var b bytes.Buffer
		b.Grow(size + len(open) + len(end))
		b.WriteString(open)
		for b.Len() < size {
			b.WriteString(fill)
		}
		b.WriteString(end)
		return b.Bytes()
	}
	tests := []struct {
		name     string
		doc      []byte
		want     string
		maxAlloc uint64
	}{
		{"63 MB of empty elements", inRoot("<r>", "<a/>", "</r>"), "elements", 256 << 20},
		{"63 MB of nesting", inRoot("<r>", "<a>", ""), "depth", 1 << 20},
		{"63 MB of text", inRoot("<r>", "xxxxxxxxxxxxxxxx", "</r>"), "text bytes", 6 * xmldsig.MaxTextBytes},
		{"63 MB of comment", inRoot("<r><!--", "xxxxxxxxxxxxxxxx", "--></r>"), "text bytes", 6 * xmldsig.MaxTextBytes},
		{"63 MB attribute value", inRoot(`<r a="`, "xxxxxxxxxxxxxxxx", `"/>`), "tag bytes", 1 << 20},
		{"63 MB of attributes", inRoot(`<r`, ` a=""`, `/>`), "tag bytes", 16 << 20},
		{"63 MB of elements with attributes", inRoot(`<r>`, `<a a="" b="" c="" d="" e="" f="" g="" h="" i="" j=""/>`, `</r>`), "attributes", 256 << 20},
		{"63 MB of elements with values", inRoot(`<r>`, `<a a="`+strings.Repeat("x", 100)+`"/>`, `</r>`), "text bytes", 256 << 20},
	}
	for _, tt := range tests {
		var err error
		m := measure(func() { _, err = xmldsig.ParseDocument(tt.doc) })
		t.Logf("%s: %d bytes: %v; %.0f ms, heap in use %d MiB more at peak, %d MiB allocated",
			tt.name, len(tt.doc), err, m.elapsed.Seconds()*1000, m.peakInuse>>20, m.allocated>>20)
		var le *xmldsig.LimitError
		if !errors.As(err, &le) || le.What != tt.want {
			t.Errorf("%s: got %v, want the limit on %s", tt.name, err, tt.want)
		}
		if m.allocated > tt.maxAlloc {
			t.Errorf("%s: %d MiB allocated, want at most %d MiB", tt.name, m.allocated>>20, tt.maxAlloc>>20)
		}
	}
}

type memFigures struct {
	elapsed   time.Duration
	peakInuse uint64 // the most heap in use while f ran, above what was in use before
	allocated uint64 // bytes f allocated, freed or not
}

// measure runs f, sampling the heap in use every millisecond.
func measure(f func()) memFigures {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	f()
	elapsed := time.Since(start)
	close(stop)
	<-stopped
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return memFigures{
		elapsed:   elapsed,
		peakInuse: max(peak.Load(), after.HeapInuse) - min(before.HeapInuse, peak.Load()),
		allocated: after.TotalAlloc - before.TotalAlloc,
	}
}
