package main

import (
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/fixtures/tl"
	"github.com/svc-dss/dss/servers/internal/validatecmd"
)

// listFiles writes the fixture ecosystem's lists (EU, the LOTL; DE, FR;
// CH, the Swiss list) to files of dir, each signed by its signer as the
// publisher signs it, with the defect given for its territory, and
// returns their paths by territory.
func listFiles(t *testing.T, eco *tl.Ecosystem, dir string, defects map[string]tl.Defect) map[string]string {
	t.Helper()
	paths := map[string]string{}
	for _, territory := range []string{"EU", "DE", "FR", "CH"} {
		signer := eco.MemberSigner
		switch territory {
		case "EU":
			signer = eco.LOTLSigner
		case "CH":
			signer = eco.SwissSigner
		}
		data, err := tl.Sign(eco.Spec(territory), signer, eco.Stranger, defects[territory])
		if err != nil {
			t.Fatal(err)
		}
		paths[territory] = write(t, dir, strings.ToLower(territory)+"-tl.xml", data)
	}
	return paths
}

// TestValidateCommandTrustedLists: `validate --trusted-list` trusts the
// given list files in place of the configured lists, authenticated by
// the given signers or reported unauthenticated without them, and
// neither reads nor creates the configured cache.
func TestValidateCommandTrustedLists(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9") // nothing answers there: --offline
	if err != nil {
		t.Fatal(err)
	}
	eco, err := tl.NewEcosystem(p, pki.ReferenceTime)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eco.Close() })
	dir := t.TempDir()
	lists := listFiles(t, eco, dir, nil)
	tampered := listFiles(t, eco, t.TempDir(), map[string]tl.Defect{"EU": tl.Tampered})
	pemOf := func(name string, id *pki.Identity) string {
		return write(t, dir, name, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: id.Certificate.Raw}))
	}
	lotlSigner, swissSigner := pemOf("lotl-signer.pem", eco.LOTLSigner), pemOf("ch-signer.pem", eco.SwissSigner)
	// LT: the revocation data is embedded, so --offline can pass it.
	sig, err := cades.Sign([]byte("contract"), cades.Options{PKI: p, Signer: p.SignerRSAQC, Level: cades.LT,
		SigningTime: pki.ReferenceTime.Add(-24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	file := write(t, dir, "contract.p7m", sig)
	cache := filepath.Join(t.TempDir(), "cache")
	env := append(offline(t), "SVC_DSS_TL_CACHE="+cache)

	tests := []struct {
		name          string
		args          []string
		indication    verdict.Indication
		framework     string
		country       string
		authenticated bool
	}{
		{"the LOTL and its member lists, authenticated",
			[]string{"--trusted-list", lists["EU"], "--trusted-list", lists["DE"], "--trusted-list", lists["FR"], "--trusted-list-signer", lotlSigner},
			"TOTAL_PASSED", "EU_EIDAS", "DE", true},
		{"without a signer: unauthenticated, as the service reports them",
			[]string{"--trusted-list", lists["EU"], "--trusted-list", lists["DE"]},
			"TOTAL_PASSED", "EU_EIDAS", "DE", false},
		{"the Swiss list alone",
			[]string{"--trusted-list", lists["CH"], "--trusted-list-signer", swissSigner},
			"TOTAL_PASSED", "CH_ZERTES", "CH", true},
		{"a tampered LOTL lends no anchor",
			[]string{"--trusted-list", tampered["EU"], "--trusted-list", tampered["DE"], "--trusted-list-signer", lotlSigner},
			"INDETERMINATE", "UNKNOWN", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			code, out, logs := command(t, env, append([]string{"validate", file, "--offline", "--at", pki.ReferenceTime.Format(time.RFC3339)}, tt.args...)...)
			is.Equal(code, 0)
			if t.Failed() {
				t.Log(logs)
			}
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal([]byte(out), &sum))
			r := sum.Signatures[0]
			is.Equal(r.Indication, tt.indication)
			is.Equal(r.TrustFramework, tt.framework)
			var country string
			if r.AnchorCountry != nil {
				country = *r.AnchorCountry
			}
			is.Equal(country, tt.country)
			if tt.indication == "TOTAL_PASSED" {
				is.Equal(r.AnchorDataAuthenticated, tt.authenticated)
			}
			is.Equal(sum.TrustData.AnchorDataAuthenticated, tt.authenticated)
			for _, l := range sum.TrustData.Lists {
				is.True(!strings.HasPrefix(l.URL, "http://127.0.0.1:9")) // the configured lists are not read
			}
		})
	}
	t.Cleanup(func() {
		if _, err := os.Stat(cache); !os.IsNotExist(err) {
			t.Errorf("the configured cache %s was created: %v", cache, err)
		}
	})
}

// TestValidateCommandCertificates: --certificate gives certificates
// that identify a signer or complete a path, trusted for nothing. A
// CAdES-B signature that embeds no certificate at all, validated offline
// against the fixture root: its signer is unknown without them; with the
// signer's and the intermediate's certificates the path to the root is
// built, and the signature then lacks revocation data only (offline, a
// B-level signature carries none). Given alone, without the root as an
// anchor, the same certificates build no trusted path.
func TestValidateCommandCertificates(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9") // nothing answers there: --offline
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bare, err := cades.Sign([]byte("contract"), cades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B,
		SigningTime: pki.ReferenceTime.Add(-24 * time.Hour), OmitIntermediates: true, OmitSignerCertificate: true})
	if err != nil {
		t.Fatal(err)
	}
	file := write(t, dir, "bare.p7m", bare)
	pemOf := func(name string, ids ...*pki.Identity) string {
		var b []byte
		for _, id := range ids {
			b = append(b, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: id.Certificate.Raw})...)
		}
		return write(t, dir, name, b)
	}
	root, both := pemOf("root.pem", p.Root), pemOf("both.pem", p.SignerRSA, p.Intermediate)
	intermediateDER := write(t, dir, "intermediate.der", p.Intermediate.Certificate.Raw)
	signer := pemOf("signer.pem", p.SignerRSA)
	base := []string{"validate", file, "--offline", "--at", pki.ReferenceTime.Format(time.RFC3339)}
	tests := []struct {
		name string
		args []string
		sub  verdict.SubIndication
	}{
		{"no certificate: the signer is unknown", []string{"--trust-anchor", root}, "NO_SIGNING_CERTIFICATE_FOUND"},
		{"the signer and the intermediate in one PEM file", []string{"--trust-anchor", root, "--certificate", both}, "TRY_LATER"},
		{"one file each, PEM and DER", []string{"--certificate", signer, "--trust-anchor", root, "--certificate", intermediateDER}, "TRY_LATER"},
		{"the signer without the intermediate", []string{"--trust-anchor", root, "--certificate", signer}, "NO_CERTIFICATE_CHAIN_FOUND"},
		{"trusted for nothing", []string{"--certificate", both}, "NO_CERTIFICATE_CHAIN_FOUND"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			code, out, logs := command(t, offline(t), append(slices.Clone(base), tt.args...)...)
			is.Equal(code, 0)
			if t.Failed() {
				t.Log(logs)
			}
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal([]byte(out), &sum))
			r := sum.Signatures[0]
			is.Equal(r.Indication, verdict.Indication("INDETERMINATE"))
			is.True(r.SubIndication != nil)
			is.Equal(*r.SubIndication, tt.sub)
		})
	}
}

// TestValidateCommandTrustedListErrors: each unusable --trusted-list,
// --trusted-list-signer or --certificate gives its own line on stderr
// and exit status: 2 for usage, with the usage line, 1 for a file that
// cannot be used.
func TestValidateCommandTrustedListErrors(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	eco, err := tl.NewEcosystem(p, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eco.Close() })
	dir := t.TempDir()
	lists := listFiles(t, eco, dir, nil)
	doc := write(t, dir, "notes.txt", []byte("hello, world"))
	notList := write(t, dir, "catalog.xml", []byte(`<?xml version="1.0"?><catalog><book/></catalog>`))
	noCert := write(t, dir, "signer.pem", []byte("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"))
	missing := filepath.Join(dir, "nope.xml")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"signer without a list", []string{"validate", doc, "--trusted-list-signer", noCert}, 2,
			"validate: --trusted-list-signer without --trusted-list: the signers authenticate the given lists"},
		{"lists with --dev", []string{"validate", doc, "--trusted-list", lists["EU"], "--dev"}, 2,
			"validate: --trusted-list with --dev: the development mode trusts its own lists"},
		{"list flag without its file", []string{"validate", doc, "--trusted-list"}, 2, "flag needs an argument: -trusted-list"},
		{"missing list file", []string{"validate", doc, "--trusted-list", missing}, 1,
			"validate: --trusted-list: open " + missing + ": no such file or directory"},
		{"a file that is no list", []string{"validate", doc, "--trusted-list", notList}, 1,
			"validate: --trusted-list: " + notList + ": trustlist: unparseable trusted list: not a TrustServiceStatusList: root element is {}catalog"},
		{"a member list without its LOTL", []string{"validate", doc, "--trusted-list", lists["DE"]}, 1,
			"validate: --trusted-list: " + lists["DE"] + ": the list of DE needs the list of trusted lists that points to it"},
		{"two LOTLs", []string{"validate", doc, "--trusted-list", lists["EU"], "--trusted-list", lists["EU"]}, 1,
			"validate: --trusted-list: " + lists["EU"] + " and " + lists["EU"] + ": two lists of trusted lists, one at most"},
		{"signer file without a certificate", []string{"validate", doc, "--trusted-list", lists["EU"], "--trusted-list-signer", noCert}, 1,
			"validate: --trusted-list-signer: keystore: " + noCert + ": cert: malformed: no CERTIFICATE block in PEM input"},
		{"missing signer file", []string{"validate", doc, "--trusted-list", lists["EU"], "--trusted-list-signer", missing}, 1,
			"validate: --trusted-list-signer: keystore: stat " + missing + ": no such file or directory"},
		{"certificate file without a certificate", []string{"validate", doc, "--certificate", noCert}, 1,
			"validate: --certificate: keystore: " + noCert + ": cert: malformed: no CERTIFICATE block in PEM input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			env := append(offline(t), "SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS=127.0.0.1:0")
			code, out, stderr := command(t, env, tt.args...)
			is.Equal(code, tt.code)
			is.Equal(out, "")
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if !slices.Contains(lines, tt.stderr) {
				t.Errorf("stderr has no line %q:\n%s", tt.stderr, stderr)
			}
			is.Equal(slices.Contains(lines, validatecmd.Usage), tt.code == 2) // the usage line for usage errors only
		})
	}
}

// TestValidateCommandMRA: the corpus's MRA third-country case through
// the command, as issue 22 gives it: the pilot LOTL authenticated by its
// signer, the ZZ list it points to, the certificates of the case as
// --certificate. The trust is DSS's: the ZZ list is read in eIDAS terms
// under the agreement, anchor country ZZ, the signer's certificate
// qualified for electronic signatures. The indication is not DSS's
// TOTAL_PASSED. That the document's revocation data (2022-07-28) is from
// after the validation time (2022-06-11) no longer matters (decision
// 0035); but its one OCSP response about the signer is signed by a
// responder the root certified, not the signer's issuing CA, so it is
// not authorised (RFC 6960, 4.2.2.2) and gives no fact, and nothing in
// the document is about the issuing CA. DSS's test trusts the CA and the
// responder directly; given as --certificate they are trusted for
// nothing. So the signer's status is TRY_LATER and the qualification,
// QESIG for the certificate, is INDETERMINATE_QESIG for the signature
// (the known difference of xades-037 in app/validation's conformance
// test).
func TestValidateCommandMRA(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	trustDir := realworld.Trust(t)
	doc := filepath.Join(filepath.Dir(trustDir), "files", "xades-037-mra-john-doe-lta.xml")
	anchors := filepath.Join(trustDir, "anchors", "xades-037-mra-john-doe-lta")
	cache := filepath.Join(t.TempDir(), "cache")
	args := []string{"validate", doc, "--offline", "--at", "2022-06-11T12:00:00Z",
		"--trusted-list", filepath.Join(trustDir, "dss/mra/mra-lotl.xml"), "--trusted-list", filepath.Join(trustDir, "dss/mra/mra-zz-tl.xml"),
		"--trusted-list-signer", anchors + "-1.cer"}
	for _, n := range []string{"2", "3", "4", "5"} {
		args = append(args, "--certificate", anchors+"-"+n+".cer")
	}
	code, out, logs := command(t, append(offline(t), "SVC_DSS_TL_CACHE="+cache), args...)
	is.Equal(code, 0)
	if t.Failed() {
		t.Log(logs)
	}
	var sum verdict.ValidationSummary
	is.NoErr(json.Unmarshal([]byte(out), &sum))
	is.Equal(sum.SignatureCount, 1)
	r := sum.Signatures[0]
	is.Equal(r.SignatureFormat, "XAdES_BASELINE_LTA")
	is.Equal(r.TrustFramework, "EU_EIDAS")
	is.True(r.AnchorCountry != nil && *r.AnchorCountry == "ZZ")
	is.True(r.AnchorDataAuthenticated)
	is.Equal(r.Indication, verdict.Indication("INDETERMINATE"))
	is.True(r.SubIndication != nil && *r.SubIndication == "TRY_LATER")
	is.True(r.EIDASQualification != nil && *r.EIDASQualification == "INDETERMINATE_QESIG")
	is.True(strings.Contains(logs, "ocsp: unauthorised responder")) // why the signer's OCSP response gives no fact
	var mra, qesig bool
	for _, w := range r.Warnings {
		mra = mra || w.Code == "QUALIFICATION_MRA"
		qesig = qesig || w.Message == "the signature is INDETERMINATE, so its qualification is INDETERMINATE_QESIG"
	}
	is.True(mra)   // the ZZ list read through the agreement
	is.True(qesig) // QESIG but for the indication
	var zz bool
	for _, l := range sum.TrustData.Lists {
		if l.Territory == "ZZ" {
			zz = l.Authenticity == "VALID"
		}
	}
	is.True(zz) // the ZZ list authenticated through the pilot LOTL
	_, err := os.Stat(cache)
	is.True(os.IsNotExist(err)) // the cache untouched
}
