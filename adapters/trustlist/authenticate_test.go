package trustlist_test

import (
	"crypto/x509"
	"errors"
	"path/filepath"
	"testing"

	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

// TestAuthenticateCorpus checks real lists against the signers they may
// be signed by, as TRUST.md records what DSS asserts about them.
func TestAuthenticateCorpus(t *testing.T) {
	t.Parallel()
	dir := corpusDir(t)
	read := func(name string) []byte { return readCorpus(t, name) }
	keys := func(name string) []*x509.Certificate {
		c, err := keystore.ReadTrustStore(filepath.Join(dir, name), "PKCS12", "dss-password")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	oj2019, signers2026 := keys("dss/oj-keystore/keystore.p12"), keys("derived/eu-lotl-signers-2026-latest.p12")
	// The Swiss list's signer has never signed a LOTL. (The 2026 set still
	// holds the 2019 LOTL's signer, so it is no stranger to that list.)
	stranger, serr := keystore.ReadCertificateFile(filepath.Join(dir, "ch/CH-TL-signer-cert.pem"))
	if serr != nil {
		t.Fatal(serr)
	}

	// The BE list's signers are announced in the 2026 LOTL's BE pointer.
	lotl2026, err := trustlist.Parse(read("pyhanko/tl/eu-lotl.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var beSigners []*x509.Certificate
	for _, p := range trustlist.MemberLists(lotl2026) {
		if p.Territory == "BE" {
			for _, der := range p.SignerCertificates {
				if c, err := x509.ParseCertificate(der); err == nil {
					beSigners = append(beSigners, c)
				}
			}
		}
	}

	tests := []struct {
		file    string
		signers []*x509.Certificate
		want    trust.Authenticity
	}{
		{"dss/lotl/eu-lotl.xml", oj2019, trust.AuthValid},
		{"dss/lotl/eu-lotl_broken-sig.xml", oj2019, trust.AuthInvalid},
		{"dss/lotl/eu-lotl-broken-sig.xml", oj2019, trust.AuthInvalid},
		{"dss/lotl/eu-lotl.xml", stranger, trust.AuthIndeterminate}, // a signer the list may not be signed by
		{"dss/lotl/eu-lotl.xml", signers2026, trust.AuthValid},
		{"dss/lotl/eu-lotl-no-sig.xml", oj2019, trust.AuthIndeterminate},
		{"dss/lotl/eu-lotl.xml", nil, trust.AuthNotChecked},
		{"pyhanko/tl/eu-lotl.xml", signers2026, trust.AuthValid},
		{"pyhanko/tl/eu-lotl.xml", oj2019, trust.AuthIndeterminate}, // reachable only through pivots
		{"pyhanko/tl/tsl-be-v6.xml", beSigners, trust.AuthValid},
	}
	for _, tt := range tests {
		if got := trustlist.Authenticate(read(tt.file), tt.signers).Authenticity; got != tt.want {
			t.Errorf("%s with %d signers: %v, want %v", tt.file, len(tt.signers), got, tt.want)
		}
	}
	for _, f := range []string{"dss/lotl/eu-lotl_not-parsable.xml", "dss/lotl/eu-lotl-not-parseable.xml"} {
		if _, err := trustlist.Parse(read(f)); !errors.Is(err, trustlist.ErrUnparseable) {
			t.Errorf("%s: %v, want a parse failure", f, err)
		}
	}
}
