package trustlist_test

import (
	"bytes"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/adapters/trustlist"
)

// A hostile list is refused before it becomes a tree: by its size, or,
// under MaxInputBytes, while xmldsig tokenises it with DocumentLimits,
// which Parse refuses for the same limit. The figures logged are those of
// the tree parse; before the limits were checked while tokenising, 63 MB
// of empty elements took 4.0 GiB of allocation as a tree. Not parallel:
// the allocation count is process-wide.
func TestHostileListRefusedWhileTokenising(t *testing.T) {
	fill := func(size int, open, repeat, end string) []byte {
		var b bytes.Buffer
		b.Grow(size)
		b.WriteString(`<TrustServiceStatusList xmlns="http://uri.etsi.org/02231/v2#">` + open)
		for b.Len() < size-len(end)-len("</TrustServiceStatusList>")-len(repeat) {
			b.WriteString(repeat)
		}
		b.WriteString(end + "</TrustServiceStatusList>")
		return b.Bytes()
	}
	const size = trustlist.MaxInputBytes
	tests := []struct {
		name     string
		data     []byte
		what     string // the limit Parse and the tree parse report
		maxAlloc uint64 // of the tree parse
	}{
		{"63 MB of empty elements", fill(63_000_000, "", "<a/>", ""), "input size", 0},
		{"MaxInputBytes of empty elements", fill(size, "", "<a/>", ""), "elements", 96 << 20},
		{"MaxInputBytes of attributes", fill(size, "", `<a b="" c="" d="" e="" f=""/>`, ""), "attributes", 96 << 20},
		{"MaxInputBytes of nesting", fill(size, "", "<a>", ""), "depth", 1 << 20},
		{"MaxInputBytes of text", fill(size, "<a>", "xxxxxxxx", "</a>"), "text bytes", 5 * trustlist.MaxTextBytes},
	}
	for _, tt := range tests {
		_, err := trustlist.Parse(tt.data)
		var le *trustlist.LimitError
		if !errors.As(err, &le) || le.What != tt.what {
			t.Errorf("%s: Parse: got %v, want the limit on %s", tt.name, err, tt.what)
		}
		if len(tt.data) > trustlist.MaxInputBytes {
			continue // never tokenised
		}

		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err = xmldsig.ParseDocumentLimits(tt.data, trustlist.DocumentLimits())
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d bytes: %v; %.0f ms, %d MiB allocated", tt.name, len(tt.data), err, elapsed.Seconds()*1000, allocated>>20)
		var xe *xmldsig.LimitError
		if !errors.As(err, &xe) || xe.What != tt.what {
			t.Errorf("%s: tree parse: got %v, want the limit on %s", tt.name, err, tt.what)
		}
		if allocated > tt.maxAlloc {
			t.Errorf("%s: tree parse allocated %d MiB, want at most %d MiB", tt.name, allocated>>20, tt.maxAlloc>>20)
		}
	}
}
