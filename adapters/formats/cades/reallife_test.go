package cades_test

import (
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
	var rows []realworld.Case
	for _, c := range realworld.Manifest(t) {
		if c.Format == "CAdES" {
			rows = append(rows, c)
		}
	}
	var asserted, agreed, valid, validOK, noSigner int
	for _, row := range rows {
		data, err := os.ReadFile(realworld.File(t, row.ID))
		if err != nil {
			t.Fatal(err)
		}
		doc := ports.Document{Name: row.ID, Data: data}
		for _, p := range row.Detached {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			doc.Detached = append(doc.Detached, ports.Detached{Name: filepath.Base(p), Data: b})
		}
		sigs, err := cades.NewReader().Read(context.Background(), doc)
		if err != nil {
			if errors.Is(err, ports.ErrUnreadable) {
				t.Logf("%-34s UNREADABLE: %v", row.ID, err)
			}
			t.Errorf("%s: %v", row.ID, err)
			continue
		}
		if len(sigs) == 0 {
			t.Errorf("%s: no signature", row.ID)
			continue
		}
		s := sigs[0]
		ours := corpusLevel(s.Level)
		mark := ""
		if !strings.HasSuffix(row.Level, "?") {
			asserted++
			if ours == row.Level {
				agreed++
			} else {
				mark = "  DISAGREE"
				t.Errorf("%s: level %s (%v), corpus asserts %s", row.ID, ours, s.Level, row.Level)
			}
		}
		crypto := "-"
		if strings.Contains(row.Notes, "sig_crypto=VALID") {
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
				t.Errorf("%s: sig_crypto=VALID but data %+v, value %+v", row.ID, s.DataObjects, s.Value)
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
			row.ID, row.Level, ours, ades.SignatureFormat(ades.CAdES, s.Level), len(sigs), len(s.CounterSignatures), crypto, kinds,
			len(s.Certificates), len(s.CRLs), len(s.OCSPResponses), len(s.Problems), mark)
	}
	t.Logf("CAdES corpus: %d cases read, asserted level agrees %d/%d, sig_crypto=VALID intact+valid %d/%d (%d intact, signer certificate not in the document)",
		len(rows), agreed, asserted, validOK, valid, noSigner)
	// A signer certificate not found is accepted for a VALID case: the
	// floors (today's counts) make a reader that stops finding signers,
	// or stops reading cases, fail the test.
	const rowsFloor, validFloor = 18, 8
	if len(rows) < rowsFloor || validOK < validFloor {
		t.Errorf("%d cases read, %d sig_crypto=VALID cases intact and valid: below the floors %d and %d", len(rows), validOK, rowsFloor, validFloor)
	}
}
