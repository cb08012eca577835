package trustlist_test

import (
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

// corpusTrust is the shared corpus of real lists, relative to this
// package (/work/shared/corpus/trust in the reference checkout).
const corpusTrust = "../../../shared/corpus/trust"

// corpus returns the corpus directory or skips the test when it is absent.
func corpus(tb testing.TB) string {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(corpusTrust, "TRUST.tsv")); err != nil {
		tb.Skipf("trust corpus not found at %s (needs ../shared/corpus beside the module): %v", corpusTrust, err)
	}
	return corpusTrust
}

func readCorpus(tb testing.TB, rel string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(corpus(tb), rel))
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
	f, err := os.Open(filepath.Join(corpus(tb), "TRUST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		tb.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	get := func(rec []string, name string) string {
		i, ok := col[name]
		if !ok {
			tb.Fatalf("TRUST.tsv has no column %q", name)
		}
		if i >= len(rec) {
			return ""
		}
		return rec[i]
	}
	var rows []tsvRow
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		rows = append(rows, tsvRow{
			path: get(rec, "path"), parse: get(rec, "parse"), tslType: get(rec, "TSLType"),
			territory: get(rec, "territory"), seq: get(rec, "seq"), version: get(rec, "version"),
			pointers: get(rec, "pointers"), tsps: get(rec, "tsps"),
			issued: get(rec, "issued"), nextUpdate: get(rec, "next_update"),
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
