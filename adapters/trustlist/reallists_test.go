package trustlist_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/fixtures/realworld"
)

// corpusTrust is the shared corpus of real lists.
var corpusTrust = filepath.Join(realworld.Dir(), "trust")

// corpusDir returns the corpus directory or skips the test when it is absent.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	return realworld.Trust(tb)
}

func readCorpus(tb testing.TB, rel string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir(tb), rel))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func parseCorpus(tb testing.TB, rel string) trust.List {
	tb.Helper()
	l, err := trustlist.Parse(readCorpus(tb, rel))
	if err != nil {
		tb.Fatalf("%s: %v", rel, err)
	}
	return l
}

// tsvRow is one line of TRUST.tsv: what another tool (Python's
// ElementTree, xmlsec1) read from each list, to check ours against.
type tsvRow struct {
	path, parse, tslType, territory string
	seq, version, pointers, tsps    string
	issued, nextUpdate              string
}

func readTSV(tb testing.TB) []tsvRow {
	tb.Helper()
	var rows []tsvRow
	for _, r := range realworld.TrustRows(tb) {
		rows = append(rows, tsvRow{
			path: r.Get("path"), parse: r.Get("parse"), tslType: r.Get("TSLType"),
			territory: r.Get("territory"), seq: r.Get("seq"), version: r.Get("version"),
			pointers: r.Get("pointers"), tsps: r.Get("tsps"),
			issued: r.Get("issued"), nextUpdate: r.Get("next_update"),
		})
	}
	return rows
}

func atoi0(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func tsvTime(tb testing.TB, s string) time.Time {
	tb.Helper()
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		tb.Fatalf("TRUST.tsv time %q: %v", s, err)
	}
	return t
}

func countServices(l trust.List) int {
	n := 0
	for _, p := range l.Providers {
		n += len(p.Services)
	}
	return n
}

// TestCorpus parses every list of TRUST.tsv. The files TRUST.md and the
// TSV mark NOT_PARSEABLE (malformed XML) or EMPTY (0 bytes) must fail with
// ErrUnparseable, every other one must parse and agree with the TSV on
// territory, type, version, sequence number, dates and counts.
func TestCorpus(t *testing.T) {
	rows := readTSV(t)
	if len(rows) < 100 {
		t.Fatalf("TRUST.tsv lists %d lists, want the full corpus", len(rows))
	}
	t.Logf("%-4s %-4s %-6s %-4s %-10s %-10s %5s %5s %5s  %s", "terr", "kind", "seq", "ver", "issued", "next", "tsps", "svcs", "ptrs", "path")
	var ok, failed int
	for _, row := range rows {
		l, err := trustlist.Parse(readCorpus(t, row.path))
		if err == nil {
			kind := map[trust.Kind]string{trust.LOTL: "LOTL", trust.TL: "TL"}[l.Kind]
			t.Logf("%-4s %-4s %-6d %-4d %-10s %-10s %5d %5d %5d  %s", l.Territory, kind, l.SequenceNumber, l.Version,
				day(l.IssueDate), day(l.NextUpdate), len(l.Providers), countServices(l), len(l.Pointers), row.path)
		} else {
			t.Logf("%-4s %-4s %-6s %-4s %-10s %-10s %5s %5s %5s  %s (%s)", "-", "-", "-", "-", "-", "-", "-", "-", "-", row.path, row.parse)
		}
		t.Run(row.path, func(t *testing.T) {
			is := is.New(t)
			if row.parse != "OK" {
				is.True(strings.HasPrefix(row.parse, "NOT_PARSEABLE") || row.parse == "EMPTY") // TSV classes
				is.True(errors.Is(err, trustlist.ErrUnparseable))                              // unparseable file must fail
				failed++
				t.Logf("refused as expected: %v", err)
				return
			}
			is.NoErr(err)
			ok++
			is.Equal(l.Territory, row.territory)
			is.Equal(l.SequenceNumber, atoi0(row.seq))
			is.Equal(l.Version, atoi0(row.version))
			is.Equal(tail(l.TypeURI), row.tslType)
			is.True(l.IssueDate.Equal(tsvTime(t, row.issued)))
			is.True(l.NextUpdate.Equal(tsvTime(t, row.nextUpdate)))
			is.Equal(len(l.Pointers), atoi0(row.pointers))
			is.Equal(len(l.Providers), atoi0(row.tsps))
			if strings.HasSuffix(row.tslType, "listofthelists") {
				is.Equal(l.Kind, trust.LOTL)
			} else {
				is.Equal(l.Kind, trust.TL)
			}
		})
	}
	t.Logf("%d parsed, %d refused", ok, failed)
}

func tail(uri string) string {
	if i := strings.LastIndexByte(uri, '/'); i >= 0 {
		return uri[i+1:]
	}
	return uri
}

func day(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format(time.DateOnly)
}
