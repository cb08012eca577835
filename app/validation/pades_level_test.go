package validation_test

import (
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/realworld"
)

// euSnapshotValidator is conformanceValidator with the corpus's 2023 EU
// snapshot loaded from the cache (thousands of anchors), offline.
func euSnapshotValidator(t *testing.T) *validation.Validator {
	t.Helper()
	dir := t.TempDir()
	cfg, err := config.LoadValidator(nil, []string{
		"SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_TL_CACHE=" + dir,
		"SVC_DSS_VALIDATOR_LOTL_URL=" + lotlURL,
		"SVC_DSS_VALIDATOR_OJ_KEYSTORE=" + filepath.Join(realworld.Trust(t), corpusOJKeystore),
		"SVC_DSS_VALIDATOR_OJ_KEYSTORE_PASSWORD=" + corpusOJPassword,
		"SVC_DSS_VALIDATOR_SWISS_ENABLED=false",
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Offline = true
	logger := slog.New(slog.DiscardHandler)
	cache, err := tlcache.Open(dir, logger)
	if err != nil {
		t.Fatal(err)
	}
	fillCorpusCache(t, cache)
	v := serviceValidator(t, cfg, logger, func() time.Time { return conformanceTime })
	snap := v.Snapshot()
	loaded := 0
	for _, l := range snap.Lists {
		if l.List != nil && l.Authenticity == trust.AuthValid {
			loaded++
		}
	}
	if loaded < 25 {
		t.Fatalf("the EU snapshot did not load: %d lists authenticated", loaded)
	}
	return v
}

// The PAdES reader decides the level from the document alone (issue 17):
// every corpus PDF has the same signatureFormats with no list loaded,
// with the EU snapshot loaded, and with the case's own anchors (as the
// conformance tests validate it). What the lists change is what the
// process makes of the evidence (LEVEL_NOT_SUPPORTED_BY_EVIDENCE), which
// is logged.
func TestPAdESLevelWhateverListsAreLoaded(t *testing.T) {
	var cases []realworld.Case
	for _, c := range realworld.Manifest(t) {
		if c.Format == "PAdES" {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		t.Fatal("MANIFEST.tsv lists no PAdES case")
	}
	none, eu := conformanceValidator(t), euSnapshotValidator(t)
	for _, c := range cases {
		doc, anchors := conformanceDocument(t, c)
		at := conformanceAt(t, c)
		runs := []struct {
			name string
			v    *validation.Validator
		}{
			{"no list", none.At(at)},
			{"EU snapshot", eu.At(at)},
			{"the case's anchors", none.At(at).Trusting(anchors...)},
		}
		var formats [][]string
		for _, run := range runs {
			r, err := validateReport(run.v, doc, time.Time{})
			if err != nil {
				formats = append(formats, []string{"error: " + err.Error()})
				continue
			}
			var f, notes []string
			for _, s := range r.Summary.Signatures {
				f = append(f, s.SignatureFormat)
				if n := evidenceNote(s); n != "" {
					notes = append(notes, strings.TrimPrefix(n, "; "))
				}
			}
			formats = append(formats, f)
			if len(notes) > 0 {
				t.Logf("%s, %s: %s", c.ID, run.name, strings.Join(notes, "; "))
			}
		}
		for i, run := range runs[1:] {
			if !slices.Equal(formats[i+1], formats[0]) {
				t.Errorf("%s: signatureFormat %v with %s, %v with %s", c.ID, formats[i+1], run.name, formats[0], runs[0].name)
			}
		}
		t.Logf("%-40s %s", c.ID, strings.Join(formats[0], ","))
	}
}

// Issue 17 end to end: a store holding the OCSP responses of the signer
// and the TSA (issue 22) and nothing for their CA is PAdES_BASELINE_LT
// whatever the anchors; whether the evidence supports LT is the
// process's call, which depends on them.
// With the fixture lists, the signer's CA is an anchor and the signer's
// data is all the chain needs; with the root as the only anchor, the CA's
// revocation data is not in the document (LEVEL_NOT_SUPPORTED_BY_EVIDENCE).
func TestPAdESLevelEvidenceDependsOnAnchors(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	d := pades.New(1)
	is.NoErr(d.Sign(pades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.T, SigningTime: s.at.Add(-2 * time.Hour)}))
	resp, err := cades.OCSPResponse(p, p.SignerRSA, s.at.Add(-time.Hour))
	is.NoErr(err)
	// The TSA's too: LT asks data about the TSAs (issue 22).
	tsaResp, err := cades.OCSPResponse(p, p.TSA, s.at.Add(-time.Hour))
	is.NoErr(err)
	catalog := d.Objects().Catalog
	body, err := d.Body(catalog)
	is.NoErr(err)
	objs := map[int]string{}
	var certs []string
	for _, der := range [][]byte{p.SignerRSA.DER, p.Intermediate.DER, p.Root.DER, p.OCSPResponder.DER} {
		n := d.Alloc()
		objs[n] = pades.Stream("", string(der))
		certs = append(certs, pades.Ref(n))
	}
	ocsp, tsaOCSP, store := d.Alloc(), d.Alloc(), d.Alloc()
	objs[ocsp] = pades.Stream("", string(resp))
	objs[tsaOCSP] = pades.Stream("", string(tsaResp))
	objs[store] = fmt.Sprintf("<< /Type /DSS /Certs [%s] /OCSPs [%s %s] >>", strings.Join(certs, " "), pades.Ref(ocsp), pades.Ref(tsaOCSP))
	objs[catalog] = strings.TrimSuffix(body, " >>") + " /DSS " + pades.Ref(store) + " >>"
	d.Update(objs, 0)
	doc := validation.Document{Name: "doc.pdf", Data: d.Bytes()}

	for _, run := range []struct {
		name        string
		v           *validation.Validator
		anchors     []*x509.Certificate
		unsupported bool
	}{
		{"with the lists", s.v, nil, false},
		{"with the root only", conformanceValidator(t), []*x509.Certificate{p.Root.Certificate}, true},
	} {
		r, err := validateReport(run.v, doc, s.at, run.anchors...)
		is.NoErr(err)
		is.Equal(len(r.Summary.Signatures), 1)
		sig := r.Summary.Signatures[0]
		t.Logf("%s: %s; %s", run.name, sig.SignatureFormat, strings.TrimPrefix(evidenceNote(sig), "; "))
		is.Equal(sig.SignatureFormat, "PAdES_BASELINE_LT") // the structure, whatever the anchors
		is.Equal(evidenceNote(sig) != "", run.unsupported) // LEVEL_NOT_SUPPORTED_BY_EVIDENCE
	}
}
