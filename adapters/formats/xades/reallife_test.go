package xades_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/xades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/ports"
)

// originalName finds, in a case's notes, the name the source test gave
// its detached part n ("detached-1 original name: sample.xml"): detached
// references name their data.
func originalName(notes string, n int) string {
	m := regexp.MustCompile(fmt.Sprintf(`detached-%d original name: ([^ |]+)`, n)).FindStringSubmatch(notes)
	if m == nil {
		return ""
	}
	return m[1]
}

// corpusDocument reads a case's document and its detached parts, named as
// the source test named them.
func corpusDocument(t *testing.T, row realworld.Case) ports.Document {
	t.Helper()
	data, err := os.ReadFile(realworld.File(t, row.ID))
	if err != nil {
		t.Fatal(err)
	}
	doc := ports.Document{Name: row.ID, Data: data}
	for i, p := range row.Detached {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := originalName(row.Notes, i+1)
		if name == "" {
			name = filepath.Base(p)
		}
		doc.Detached = append(doc.Detached, ports.Detached{Name: name, Data: b})
	}
	return doc
}

// corpusLevel spells our level the way MANIFEST.tsv does: DSS maps
// *_NOT_ETSI to B.
func corpusLevel(l ades.Level) string {
	switch l {
	case ades.NotBaseline, ades.LevelB:
		return "B"
	case ades.LevelT:
		return "T"
	case ades.LevelLT:
		return "LT"
	case ades.LevelLTA:
		return "LTA"
	}
	return "-"
}

// summary is one signature as the corpus table shows it.
func summary(s ades.Signature) string {
	objs := make([]string, 0, len(s.DataObjects))
	for _, o := range s.DataObjects {
		st := "ok"
		switch {
		case !o.Found:
			st = "NOT-FOUND"
		case o.Unchecked != "":
			st = "UNCHECKED:" + o.Unchecked
		case !o.Intact:
			st = "NOT-INTACT"
		}
		objs = append(objs, o.Name+"="+st)
	}
	val := "valid"
	if !s.Value.Done || !s.Value.Valid {
		val = s.Value.Reason
	}
	var ts []string
	for _, t := range s.Timestamps {
		k := map[ades.TimestampType]string{ades.ContentTimestamp: "cts", ades.SignatureTimestamp: "sts", ades.ValidationDataTimestamp: "xts", ades.ArchiveTimestamp: "ats"}[t.Type]
		if !t.Imprint.Valid {
			k += "(" + t.Imprint.Reason + ")"
		}
		ts = append(ts, k)
	}
	var codes []string
	for _, p := range s.Problems {
		c := p.Code
		if p.FormatFailure {
			c += "!"
		}
		codes = append(codes, c)
	}
	return fmt.Sprintf("%-22s data %v value %s signer %t ref %+v ts %v certs %d crls %d ocsp %d cs %d problems %v",
		s.FormatName(), objs, val, s.SigningCertificate != nil, s.Reference, ts, len(s.Certificates), len(s.CRLs), len(s.OCSPResponses), len(s.CounterSignatures), codes)
}

// knownLevel are the cases whose asserted level we do not report, and
// why.
var knownLevel = map[string]string{}

// knownUnreadable are the cases the reader refuses, and why.
var knownUnreadable = map[string]string{
	"xades-029-b-with-certvalues": "encoding ISO-8859-2: xmldsig.ParseDocument reads UTF-8 and US-ASCII only",
}

// TestCorpus reads every XAdES case of the shared corpus: no error, the
// asserted level (without '?') is ours, and sig_crypto=VALID cases have
// every data object intact and a valid value (or, without the signer's
// certificate in the document, an intact object and a value not checked).
// It logs what the reader reports of each case.
func TestCorpus(t *testing.T) {
	var rows []realworld.Case
	for _, c := range realworld.Manifest(t) {
		if c.Format == "XAdES" {
			rows = append(rows, c)
		}
	}
	var asserted, agreed, valid, validOK int
	for _, row := range rows {
		doc := corpusDocument(t, row)
		sigs, err := xades.NewReader().Read(context.Background(), doc)
		if err != nil {
			if why, ok := knownUnreadable[row.ID]; ok && errors.Is(err, ports.ErrUnreadable) {
				t.Logf("%-38s unreadable (%s): %v", row.ID, why, err)
			} else {
				t.Errorf("%s: %v", row.ID, err)
			}
			continue
		}
		if len(sigs) == 0 {
			t.Errorf("%s: no signature", row.ID)
			continue
		}
		s := sigs[0]
		if lvl := strings.TrimSuffix(row.Level, "?"); lvl == row.Level {
			asserted++
			if ours := corpusLevel(s.Level); ours == lvl {
				agreed++
			} else if why, ok := knownLevel[row.ID]; ok {
				t.Logf("%s: level %s, corpus %s: %s", row.ID, ours, lvl, why)
			} else {
				t.Errorf("%s: level %s (%s), corpus asserts %s", row.ID, ours, s.FormatName(), lvl)
			}
		}
		if strings.Contains(row.Notes, "sig_crypto=VALID") {
			valid++
			ok := len(s.DataObjects) > 0 && s.Value.Done && s.Value.Valid
			for _, o := range s.DataObjects {
				ok = ok && o.Found && o.Intact
			}
			if ok {
				validOK++
			} else {
				t.Logf("%s: sig_crypto=VALID, ours: %s", row.ID, summary(s))
			}
		}
		for i, s := range sigs {
			t.Logf("%-38s #%d corpus %-4s %s", row.ID, i+1, row.Level, summary(s))
			for j, c := range s.CounterSignatures {
				t.Logf("%-38s #%d.%d counter-signature %s", row.ID, i+1, j+1, summary(c))
			}
		}
	}
	t.Logf("XAdES corpus: %d cases read, asserted level agrees %d/%d, sig_crypto=VALID intact+valid %d/%d", len(rows), agreed, asserted, validOK, valid)
	// Floors at today's counts: a reader that stops reading cases or
	// finding what they sign fails.
	const rowsFloor, agreedFloor, validFloor = 24, 16, 10
	if len(rows) < rowsFloor || agreed < agreedFloor || validOK < validFloor {
		t.Errorf("below the floors: %d cases (%d), %d levels agree (%d), %d valid (%d)", len(rows), rowsFloor, agreed, agreedFloor, validOK, validFloor)
	}
}
