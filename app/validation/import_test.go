package validation_test

import (
	"context"
	"crypto/x509"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/fixtures/tl"
)

// importFiles writes the ecosystem's lists (EU, DE, FR, CH) to files,
// signed as the publisher signs them, and returns their paths in that
// order.
func importFiles(t *testing.T, e *env) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, territory := range []string{"EU", "DE", "FR", "CH"} {
		signer := e.eco.MemberSigner
		switch territory {
		case "EU":
			signer = e.eco.LOTLSigner
		case "CH":
			signer = e.eco.SwissSigner
		}
		data, err := tl.Sign(e.eco.Spec(territory), signer, e.eco.Stranger, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, territory+".xml")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestImport: Import stores the lists that pass a refresh's checks in
// the service's cache, where a store started on it afterwards finds
// them authenticated, as after a refresh; without the OJ keystore the
// lists are stored NOT_CHECKED, as a refresh stores them.
func TestImport(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  []string
		auth trust.Authenticity
	}{
		{"with the signers configured", nil, trust.AuthValid},
		{"without the OJ keystore and the Swiss certificate", []string{"SVC_DSS_VALIDATOR_OJ_KEYSTORE=/nonexistent/oj.p12", "SVC_DSS_VALIDATOR_CH_TL_SIGNER_CERT=/nonexistent/ch.der"}, trust.AuthNotChecked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			e := newEnv(t)
			v, _ := e.service(t, tt.env...)
			files := importFiles(t, e)
			results, err := v.Import(context.Background(), files...)
			is.NoErr(err)
			is.Equal(len(results), 4)
			for i, r := range results {
				is.Equal(r, validation.ImportResult{File: files[i], Territory: []string{"EU", "DE", "FR", "CH"}[i], Authenticity: tt.auth, Stored: true})
			}
			src := e.sources()
			if tt.auth == trust.AuthNotChecked {
				src.OJCerts, src.SwissCerts = nil, nil
			}
			restarted := e.store(t, src)
			snap := restarted.LoadCache(context.Background())
			is.Equal(len(snap.Lists), 4)
			for _, l := range snap.Lists {
				is.True(l.List != nil) // from the cache
				is.Equal(l.Authenticity, tt.auth)
			}
		})
	}
}

// TestImportNeedsTheServiceCache: a validator that reads a cache without
// writing it (WithListCache), or that has none, cannot import.
func TestImportNeedsTheServiceCache(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	is.NoErr(os.MkdirAll(e.cacheDir, 0o700))
	lotl := validation.TrustedList{URL: e.eco.LOTLURL, Signers: []*x509.Certificate{e.eco.LOTLSigner.Certificate}}
	v, err := validation.New(context.Background(), validation.WithListCache(e.cacheDir), validation.WithEULOTL(lotl), validation.WithClock(e.clock.Now))
	is.NoErr(err)
	_, err = v.Import(context.Background(), importFiles(t, e)...)
	is.True(err != nil && strings.Contains(err.Error(), "no list cache it may write"))
	entries, err := os.ReadDir(e.cacheDir)
	is.NoErr(err)
	is.Equal(len(entries), 0) // nothing written
}
