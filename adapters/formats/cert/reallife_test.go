package cert

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/fixtures/realworld"
)

// x509CertificateRE finds the certificates of XMLDSig KeyInfo and of
// trusted-list service digital identities.
var x509CertificateRE = regexp.MustCompile(`<(?:[A-Za-z0-9_]+:)?X509Certificate>([^<]+)</`)

// TestCorpusTrustMaterial parses every certificate of the corpus trust
// material: the certificate files and the certificates in the trusted
// lists, thousands of real EU CA and TSA certificates. Every one must
// parse; the log says how many needed the repair or lenient path and why.
func TestCorpusTrustMaterial(t *testing.T) {
	is := is.New(t)
	dir := realworld.Trust(t)
	seen := map[string]bool{}
	methods := map[Method]int{}
	deviations := map[string]int{}
	failed := 0
	check := func(where string, der []byte) {
		if seen[string(der)] {
			return
		}
		seen[string(der)] = true
		c, rep, err := ParseDetailed(der)
		if err != nil {
			failed++
			t.Errorf("%s: %v", where, err)
			return
		}
		methods[rep.Method]++
		for _, d := range rep.Deviations {
			deviations[d]++
		}
		if rep.Method != Stdlib {
			t.Logf("%s: %q %v: %v (crypto/x509: %v)", where, c.Subject.CommonName, rep.Method, rep.Deviations, rep.StdlibErr)
		}
	}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch strings.ToLower(filepath.Ext(path)) {
		case ".cer", ".crt", ".der", ".pem":
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if strings.Contains(string(b), "-----BEGIN") && !strings.Contains(string(b), "CERTIFICATE-----") {
				return nil // keys and other PEM blocks
			}
			certs, err := ParseAll(b)
			if err != nil {
				failed++
				t.Errorf("%s: %v", rel, err)
			}
			for _, c := range certs {
				check(rel, c.Raw)
			}
		case ".xml":
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range x509CertificateRE.FindAllSubmatch(b, -1) {
				clean := strings.Map(func(r rune) rune {
					if strings.ContainsRune(" \t\r\n", r) {
						return -1
					}
					return r
				}, string(m[1]))
				der, err := base64.StdEncoding.DecodeString(clean)
				if err != nil {
					continue // not ours to judge: the XML tests do
				}
				check(rel, der)
			}
		}
		return nil
	})
	is.NoErr(err)
	t.Logf("trust material: %d distinct certificates; crypto/x509 %d, repaired %d, lenient %d, failed %d",
		len(seen), methods[Stdlib], methods[Repaired], methods[Lenient], failed)
	for d, n := range deviations {
		t.Logf("  %4d  %s", n, d)
	}
	is.Equal(failed, 0)
}
