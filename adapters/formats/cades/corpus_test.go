package cades_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/ports"
)

// corpusRow is one CAdES line of the shared corpus MANIFEST.tsv.
type corpusRow struct {
	id, level, detached, notes string
}

func corpusRows(t *testing.T) (string, []corpusRow) {
	t.Helper()
	dir := realworld.Dir()
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("shared corpus not found at %s: skipping the real-world checks", dir)
	}
	defer f.Close()
	var rows []corpusRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var cols map[string]int
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if cols == nil {
			cols = map[string]int{}
			for i, name := range fields {
				cols[name] = i
			}
			for _, need := range []string{"id", "format", "level", "detached_content_path", "notes"} {
				if _, ok := cols[need]; !ok {
					t.Fatalf("MANIFEST.tsv has no column %q", need)
				}
			}
			continue
		}
		if len(fields) < len(cols) || fields[cols["format"]] != "CAdES" {
			continue
		}
		rows = append(rows, corpusRow{
			id: fields[cols["id"]], level: fields[cols["level"]],
			detached: fields[cols["detached_content_path"]], notes: fields[cols["notes"]],
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return dir, rows
}

// corpusFile finds files/<id>.<ext>, the signature (not a detached or
// extra file).
func corpusFile(t *testing.T, dir, id string) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "files", id+".*"))
	for _, m := range matches {
		base := filepath.Base(m)
		if !strings.Contains(base, ".detached-") && !strings.Contains(base, ".extra-") {
			return m
		}
	}
	t.Fatalf("no file for %s", id)
	return ""
}

// corpusLevel spells our level the way MANIFEST.tsv does: DSS maps
// BES/EPES/*_NOT_ETSI to B, so NotBaseline is "B" there too.
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

// TestCorpus reads every CAdES case of the shared corpus: no error, the
// asserted level (without '?') is ours, and sig_crypto=VALID cases are
// intact with a valid signature value. It logs an agreement table.
func TestCorpus(t *testing.T) {
	dir, rows := corpusRows(t)
	var asserted, agreed, valid, validOK, noSigner int
	for _, row := range rows {
		data, err := os.ReadFile(corpusFile(t, dir, row.id))
		if err != nil {
			t.Fatal(err)
		}
		doc := ports.Document{Name: row.id, Data: data}
		if row.detached != "-" {
			for _, p := range strings.Split(row.detached, ";") {
				b, err := os.ReadFile(filepath.Join(dir, p))
				if err != nil {
					t.Fatal(err)
				}
				doc.Detached = append(doc.Detached, ports.Detached{Name: filepath.Base(p), Data: b})
			}
		}
		sigs, err := cades.NewReader().Read(context.Background(), doc)
		if err != nil {
			if errors.Is(err, ports.ErrUnreadable) {
				t.Logf("%-34s UNREADABLE: %v", row.id, err)
			}
			t.Errorf("%s: %v", row.id, err)
			continue
		}
		if len(sigs) == 0 {
			t.Errorf("%s: no signature", row.id)
			continue
		}
		s := sigs[0]
		ours := corpusLevel(s.Level)
		mark := ""
		if !strings.HasSuffix(row.level, "?") {
			asserted++
			if ours == row.level {
				agreed++
			} else {
				mark = "  DISAGREE"
				t.Errorf("%s: level %s (%v), corpus asserts %s", row.id, ours, s.Level, row.level)
			}
		}
		crypto := "-"
		if strings.Contains(row.notes, "sig_crypto=VALID") {
			valid++
			ok := true
			for _, sig := range sigs {
				ok = ok && len(sig.DataObjects) == 1 && sig.DataObjects[0].Intact && sig.Value.Valid
			}
			switch {
			case ok:
				validOK++
				crypto = "valid"
			case len(s.DataObjects) == 1 && s.DataObjects[0].Intact && !s.Value.Done && s.Value.Reason == cades.CodeSignerNotFound:
				// The signer certificate is not in the document (the
				// source test supplies it): intact, value not checkable.
				noSigner++
				crypto = "no-signer"
			default:
				crypto = "NOT VALID"
				t.Errorf("%s: sig_crypto=VALID but data %+v, value %+v", row.id, s.DataObjects, s.Value)
			}
		}
		var kinds []string
		for _, ts := range s.Timestamps {
			k := map[ades.TimestampType]string{ades.ContentTimestamp: "cts", ades.SignatureTimestamp: "sts", ades.ArchiveTimestamp: "ats"}[ts.Type]
			if !ts.Imprint.Valid {
				k += "(" + ts.Imprint.Reason + ")"
			}
			kinds = append(kinds, k)
		}
		t.Logf("%-34s corpus %-4s ours %-4s (%-12v) sigs %d cs %d crypto %-9s ts %v certs %d crls %d ocsp %d problems %d%s",
			row.id, row.level, ours, ades.SignatureFormat(ades.CAdES, s.Level), len(sigs), len(s.CounterSignatures), crypto, kinds,
			len(s.Certificates), len(s.CRLs), len(s.OCSPResponses), len(s.Problems), mark)
	}
	t.Logf("CAdES corpus: %d cases read, asserted level agrees %d/%d, sig_crypto=VALID intact+valid %d/%d (%d intact, signer certificate not in the document)",
		len(rows), agreed, asserted, validOK, valid, noSigner)
}
