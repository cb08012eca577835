package jades_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/jades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/ports"
)

// corpusDocument reads a case's document and its detached parts, named
// as the source test named them ("detached-1 original name: sample.json",
// "must be presented with name 'TEST-DOC.txt'"): a sigD names its data.
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
		name := filepath.Base(p)
		for _, re := range []string{`detached-%d original name: ([^ |]+)`, `detached-%d must be presented with name '([^']+)'`} {
			if m := regexp.MustCompile(fmt.Sprintf(re, i+1)).FindStringSubmatch(row.Notes); m != nil {
				name = m[1]
			}
		}
		doc.Detached = append(doc.Detached, ports.Detached{Name: name, Data: b})
	}
	return doc
}

// summary is one signature as the table of TestCorpus pins it.
func summary(s ades.Signature) string {
	var objs []string
	for _, o := range s.DataObjects {
		st := "ok"
		switch {
		case !o.Found:
			st = "NOT-FOUND"
		case o.Unchecked != "":
			st = "UNCHECKED"
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
		k := map[ades.TimestampType]string{ades.ContentTimestamp: "ado", ades.SignatureTimestamp: "sig", ades.ArchiveTimestamp: "arc"}[t.Type]
		if !t.Imprint.Valid {
			k += "(" + t.Imprint.Reason + ")"
		}
		if !t.Value.Valid {
			k += "(token " + t.Value.Reason + ")"
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
	ref := "-"
	if s.Reference.Present {
		ref = fmt.Sprintf("matched=%t", s.Reference.DigestMatched)
	}
	return fmt.Sprintf("%s data %v value %s signer %t ref %s ts %v certs %d crls %d ocsp %d problems %v",
		s.FormatName(), objs, val, s.SigningCertificate != nil, ref, ts, len(s.Certificates), len(s.CRLs), len(s.OCSPResponses), codes)
}

// corpusWant pins what the reader makes of each JAdES case of the shared
// corpus, with the reason where the case is broken on purpose.
var corpusWant = map[string]string{
	"jades-001-lta": "JAdES_BASELINE_LTA data [payload=ok] value valid signer true ref matched=true ts [sig arc] certs 5 crls 1 ocsp 1 problems []",
	// Two arcTst, the second over the first.
	"jades-002-double-lta-container": "JAdES_BASELINE_LTA data [payload=ok] value valid signer true ref matched=true ts [sig arc arc] certs 5 crls 1 ocsp 1 problems []",
	// sigD ObjectIdByURIHash: the digest is over the base64url of the file.
	"jades-009-simple-detached": "JAdES_BASELINE_B data [sample.json=ok] value valid signer true ref matched=true ts [] certs 2 crls 0 ocsp 0 problems []",
	// hashM an XML Encryption URI and hashV padded standard base64 over
	// the file itself: the entry is not intact, the value verifies.
	"jades-010-simple-detached-wrong-algo": "JAdES_BASELINE_B data [sample.json=NOT-INTACT] value valid signer true ref matched=true ts [] certs 2 crls 0 ocsp 0 problems []",
	// alg "1.2.840.10045.3.1.7" (the P-256 OID) names no JWS algorithm.
	"jades-011-unsupported-sig-alg": "JAdES_BASELINE_B data [payload=ok] value JADES_ALGORITHM_REFUSED signer true ref matched=true ts [] certs 2 crls 0 ocsp 0 problems [JADES_ALGORITHM_REFUSED!]",
	// The arcTst input lacks the "." before the etsiU components.
	"jades-012-lta-broken-arctst": "JAdES_BASELINE_LTA data [payload=ok] value valid signer true ref matched=true ts [sig arc(JADES_IMPRINT_MISMATCH)] certs 5 crls 1 ocsp 1 problems []",
	// The sigTst is over the raw signature value, not its base64url.
	"jades-013-t-broken-sigtst": "JAdES_BASELINE_T data [payload=ok] value valid signer true ref matched=true ts [sig(JADES_IMPRINT_MISMATCH)] certs 1 crls 0 ocsp 0 problems []",
	// x5c a string, not an array.
	"jades-015-wrong-x5c":          "JAdES_BASELINE_B data [payload=ok] value JADES_SIGNER_CERTIFICATE_NOT_FOUND signer false ref matched=false ts [] certs 0 crls 0 ocsp 0 problems [JADES_HEADER_INVALID!]",
	"jades-020-object-by-uri-hash": "JAdES_BASELINE_B data [TEST-DOC.txt=ok] value valid signer true ref matched=true ts [] certs 1 crls 0 ocsp 0 problems []",
	// A general serialisation of one signature, 1.8 MB of CRL in rVals.
	"jades-021-lt-with-detached-er": "JAdES_BASELINE_LT data [payload=ok] value valid signer true ref matched=true ts [sig] certs 6 crls 1 ocsp 0 problems []",
}

// TestCorpus reads every JAdES case of the shared corpus and compares
// what the reader finds with corpusWant; a case of the manifest that is
// not pinned fails, so that a new one gets its line.
func TestCorpus(t *testing.T) {
	var n int
	for _, row := range realworld.Manifest(t) {
		if row.Format != "JAdES" {
			continue
		}
		n++
		t.Run(row.ID, func(t *testing.T) {
			sigs, err := jades.NewReader().Read(context.Background(), corpusDocument(t, row))
			if err != nil {
				t.Fatal(err)
			}
			if len(sigs) != 1 {
				t.Fatalf("%d signatures", len(sigs))
			}
			got := summary(sigs[0])
			t.Logf("corpus level %s: %s", row.Level, got)
			want, ok := corpusWant[row.ID]
			switch {
			case !ok:
				t.Errorf("not pinned: %s", got)
			case got != want:
				t.Errorf("got  %s\nwant %s", got, want)
			}
			if lvl := strings.TrimSuffix(row.Level, "?"); lvl == row.Level && !strings.HasSuffix(sigs[0].FormatName(), "_"+lvl) {
				t.Errorf("level %s, the corpus asserts %s", sigs[0].FormatName(), lvl)
			}
		})
	}
	if n != len(corpusWant) {
		t.Errorf("%d JAdES cases in the manifest, %d pinned", n, len(corpusWant))
	}
}
