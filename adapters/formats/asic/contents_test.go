package asic_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/asic"
	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/xades"
	fasic "github.com/svc-dss/dss/fixtures/asic"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/ports"
)

var testPKI = sync.OnceValues(func() (*pki.PKI, error) { return pki.New("http://127.0.0.1:9") })

// ReadContents gives a time-stamp-only container's time-stamp as a
// time-stamp entry: named by its entry, of the container's type, covering
// the data object (ASiC-S) or the manifest and its entries (ASiC-E), each
// checked, with the container's findings; no signature.
func TestReadContentsTimestamps(t *testing.T) {
	t.Parallel()
	p, err := testPKI()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	files := fasic.DefaultFiles()
	tests := []struct {
		name      string
		container fasic.Container
		defect    fasic.Defect
		entry     string
		covers    []string
		intact    []bool
		found     []bool
		problem   string // a container finding the entry carries
	}{
		{"ASiC-S", fasic.ASiCS, fasic.NoDefect, fasic.TimestampTST, []string{"document.txt"}, []bool{true}, []bool{true}, ""},
		{"ASiC-S, data altered", fasic.ASiCS, fasic.DataAltered, fasic.TimestampTST, []string{"document.txt"}, []bool{false}, []bool{true}, ""},
		{"ASiC-S, no mimetype", fasic.ASiCS, fasic.MimetypeMissing, fasic.TimestampTST, []string{"document.txt"}, []bool{true}, []bool{true}, asic.CodeMimetypeMissing},
		{"ASiC-E", fasic.ASiCE, fasic.NoDefect, fasic.TimestampTSTE,
			[]string{fasic.ASiCManifestXML, "document.txt", "annex/data.xml", "photo.bin"}, []bool{true, true, true, true}, []bool{true, true, true, true}, ""},
		{"ASiC-E, a file altered", fasic.ASiCE, fasic.DataAltered, fasic.TimestampTSTE,
			[]string{fasic.ASiCManifestXML, "document.txt", "annex/data.xml", "photo.bin"}, []bool{true, false, true, true}, []bool{true, true, true, true}, ""},
		{"ASiC-E, a file removed", fasic.ASiCE, fasic.DataRemoved, fasic.TimestampTSTE,
			[]string{fasic.ASiCManifestXML, "document.txt", "annex/data.xml", "photo.bin"}, []bool{true, false, true, true}, []bool{true, false, true, true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			fs := files[:1]
			if tt.container == fasic.ASiCE {
				fs = files
			}
			data, err := fasic.Build(fs, fasic.Options{PKI: p, Container: tt.container, Inner: fasic.TimestampOnly, SigningTime: at, Defect: tt.defect})
			is.NoErr(err)
			c, err := asic.NewReader(cades.NewReader(), xades.NewReader()).ReadContents(context.Background(), ports.Document{Name: "t", Data: data})
			is.NoErr(err)
			is.Equal(len(c.Signatures), 0)
			is.Equal(len(c.Timestamps), 1)
			e := c.Timestamps[0]
			is.Equal(e.Name, tt.entry)
			is.Equal(e.Container, tt.container.String())
			is.Equal(e.ID[:2], "T-")
			is.True(e.Timestamp.GenTime.Equal(at))
			is.True(e.Timestamp.Value.Done && e.Timestamp.Value.Valid)
			is.Equal(e.Timestamp.Imprint.Valid, tt.container == fasic.ASiCE || tt.defect != fasic.DataAltered)
			is.Equal(len(e.DataObjects), len(tt.covers))
			for i, d := range e.DataObjects {
				is.Equal(d.Name, tt.covers[i])
				is.Equal(d.Found, tt.found[i])
				is.Equal(d.Intact, tt.intact[i])
			}
			codes := map[string]bool{}
			for _, pr := range e.Problems {
				codes[pr.Code] = true
			}
			if tt.problem != "" {
				is.True(codes[tt.problem])
			}
			sigs, err := asic.NewReader(cades.NewReader(), xades.NewReader()).Read(context.Background(), ports.Document{Name: "t", Data: data})
			is.NoErr(err)
			is.Equal(len(sigs), 0) // Read reports signatures only
		})
	}
}

// An ASiC-E time-stamp that no manifest names is an entry of its own that
// covers nothing known: a format failure, not dropped.
func TestReadContentsUnnamedTimestamp(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, err := testPKI()
	is.NoErr(err)
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	data, err := fasic.Build(fasic.DefaultFiles(), fasic.Options{PKI: p, Container: fasic.ASiCE, Inner: fasic.TimestampOnly, SigningTime: at})
	is.NoErr(err)
	// The container without its ASiCManifest: rebuilt entry by entry.
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	is.NoErr(err)
	var entries []entry
	for _, f := range zr.File {
		if f.Name == fasic.ASiCManifestXML {
			continue
		}
		rc, err := f.Open()
		is.NoErr(err)
		b, err := io.ReadAll(rc)
		is.NoErr(err)
		entries = append(entries, entry{name: f.Name, data: b})
	}
	c, err := asic.NewReader(cades.NewReader(), xades.NewReader()).ReadContents(context.Background(), ports.Document{Name: "t.asice", Data: build(t, entries...)})
	is.NoErr(err)
	is.Equal(len(c.Timestamps), 1)
	e := c.Timestamps[0]
	is.Equal(e.Name, fasic.TimestampTSTE)
	is.Equal(len(e.DataObjects), 0)
	is.True(!e.Timestamp.Imprint.Done)
	failure := false
	for _, pr := range e.Problems {
		failure = failure || pr.Code == asic.CodeManifestMissing && pr.FormatFailure
	}
	is.True(failure)
}
