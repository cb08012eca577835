package main

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/servers/internal/validatecmd"
)

// TestValidateCommand runs `validate` on a CAdES-B signature that embeds
// only its signing certificate, with the fixture root as --trust-anchor:
// the intermediate must be fetched by AIA from the fixture PKI, which
// --offline forbids.
func TestValidateCommand(t *testing.T) {
	t.Parallel()
	srv := pki.Start(t)
	// OCSP answers as of the validation time: a response issued after it
	// would not be usable at it.
	srv.SetClock(func() time.Time { return pki.ReferenceTime })
	dir := t.TempDir()
	sig, err := cades.Sign([]byte("contract"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSA, Level: cades.B,
		SigningTime: pki.ReferenceTime.Add(-24 * time.Hour), OmitIntermediates: true})
	if err != nil {
		t.Fatal(err)
	}
	file := write(t, dir, "contract.p7m", sig)
	// No key info: the CMS carries no certificate; the signer is found
	// among the anchors when it is one (DSS's trusted certificate source).
	bare, err := cades.Sign([]byte("contract"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSA, Level: cades.B,
		SigningTime: pki.ReferenceTime.Add(-24 * time.Hour), OmitIntermediates: true, OmitSignerCertificate: true})
	if err != nil {
		t.Fatal(err)
	}
	bareFile := write(t, dir, "bare.p7m", bare)
	signer := write(t, dir, "signer.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.PKI.SignerRSA.Certificate.Raw}))
	root := write(t, dir, "root.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.PKI.Root.Certificate.Raw}))
	env := append(offline(t), "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false") // the fixture PKI is on 127.0.0.1
	at := "--at=" + pki.ReferenceTime.Format(time.RFC3339)

	tests := []struct {
		name       string
		args       []string
		indication verdict.Indication
		sub        verdict.SubIndication
	}{
		{"issuer fetched by AIA", []string{"validate", file, at, "--trust-anchor", root}, "TOTAL_PASSED", ""},
		{"offline: no AIA", []string{"validate", file, at, "--trust-anchor", root, "--offline"}, "INDETERMINATE", "NO_CERTIFICATE_CHAIN_FOUND"},
		{"no anchor", []string{"validate", file, at}, "INDETERMINATE", "NO_CERTIFICATE_CHAIN_FOUND"},
		{"no key info, the signer is an anchor", []string{"validate", bareFile, at, "--trust-anchor", signer}, "TOTAL_PASSED", ""},
		{"no key info, the signer is unknown", []string{"validate", bareFile, at, "--trust-anchor", root}, "INDETERMINATE", "NO_SIGNING_CERTIFICATE_FOUND"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			code, out, logs := command(t, env, tt.args...)
			is.Equal(code, 0) // logs on failure below
			if t.Failed() {
				t.Log(logs)
			}
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal([]byte(out), &sum))
			r := sum.Signatures[0]
			is.Equal(r.Indication, tt.indication)
			var sub verdict.SubIndication
			if r.SubIndication != nil {
				sub = *r.SubIndication
			}
			is.Equal(sub, tt.sub)
			is.Equal(r.TrustFramework, "UNKNOWN") // a private anchor, or none
			is.Equal(r.AnchorCountry, nil)
			is.Equal(sum.DocumentName, filepath.Base(tt.args[1]))
		})
	}
}

// TestValidateCommandErrors: every unusable invocation says what is wrong,
// with exit 2 for usage and 1 for a file that cannot be validated.
func TestValidateCommandErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := write(t, dir, "notes.txt", []byte("hello, world"))
	empty := write(t, dir, "empty.p7m", nil)
	badAnchor := write(t, dir, "anchor.pem", []byte("not a certificate"))
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no file", []string{"validate"}, 2, validatecmd.Usage},
		{"two files", []string{"validate", text, text}, 2, validatecmd.Usage},
		{"unknown flag", []string{"validate", text, "--strict"}, 2, "flag provided but not defined: -strict"},
		// Issue 17: after a flag, the flag package stops at the file and
		// used to drop whatever followed it.
		{"extra argument after a flag and the file", []string{"validate", "--offline", text, "extra.txt"}, 2, `validate: one file only: unexpected argument "extra.txt"`},
		{"extra argument among flags", []string{"validate", text, "--offline", "extra.txt", "--at=2026-11-21T12:00:00Z"}, 2, `validate: one file only: unexpected argument "extra.txt"`},
		{"unknown flag after a flag and the file", []string{"validate", "--offline", text, "--strict"}, 2, "flag provided but not defined: -strict"},
		{"unknown flag before the file", []string{"validate", "--strict=yes", text}, 2, "flag provided but not defined: -strict"},
		{"flag without its value", []string{"validate", "--offline", text, "--detached"}, 2, "flag needs an argument: -detached"},
		{"time not RFC 3339", []string{"validate", text, "--at", "yesterday"}, 2, `validate: --at "yesterday" is not an RFC 3339 time (2026-11-21T12:00:00Z)`},
		{"unknown language", []string{"validate", text, "--lang", "es"}, 2, "validate: --lang: unknown language \"es\": use en, de, fr or it\n"},
		{"language without its value", []string{"validate", text, "--lang"}, 2, "flag needs an argument: -lang"},
		{"missing file", []string{"validate", filepath.Join(dir, "nope.p7m")}, 1, "validate: open " + filepath.Join(dir, "nope.p7m") + ": no such file or directory"},
		{"missing detached file", []string{"validate", text, "--detached", filepath.Join(dir, "nope.bin")}, 1, "validate: open " + filepath.Join(dir, "nope.bin") + ": no such file or directory"},
		{"unreadable anchor", []string{"validate", text, "--trust-anchor", badAnchor}, 1, "validate: --trust-anchor: "},
		{"not a signature", []string{"validate", text}, 1, "validate: unreadable document: not a signature format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST)"},
		{"empty file", []string{"validate", empty}, 1, "validate: unreadable document: the uploaded file is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			code, out, stderr := command(t, offline(t), tt.args...)
			is.Equal(code, tt.code)
			is.Equal(out, "")
			is.True(strings.Contains(stderr, tt.stderr)) // stderr names the problem
			if tt.code == 2 && !strings.Contains(tt.name, "RFC 3339") {
				is.True(strings.Contains(stderr, validatecmd.Usage)) // and shows the usage line
			}
		})
	}
}

// TestValidateCommandFlagOrder (issue 17): the flags are honoured
// wherever they stand, before or after the file, in either form
// (--flag=value, --flag value), with --detached repeated on both sides:
// every order prints the same summary, which covers the content. Before,
// a flag ahead of the file made every argument after the file be
// dropped, so a valid detached signature came out INDETERMINATE /
// SIGNED_DATA_NOT_FOUND.
func TestValidateCommandFlagOrder(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9") // nothing answers there: --offline
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	content := []byte("contract")
	// LT: the revocation data is embedded, so --offline can pass it.
	sig, err := cades.Sign(content, cades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.LT, Detached: true,
		SigningTime: pki.ReferenceTime.Add(-24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	file := write(t, dir, "contract.p7s", sig)
	contract := write(t, dir, "contract.txt", content)
	annex := write(t, dir, "annex.txt", []byte("an annex nobody signed"))
	root := write(t, dir, "root.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.Root.Certificate.Raw}))
	at := pki.ReferenceTime.Format(time.RFC3339)

	tests := []struct {
		name string
		args []string
	}{
		{"file first", []string{file, "--offline", "--at", at, "--trust-anchor", root, "--detached", contract, "--detached", annex}},
		{"file last", []string{"--offline", "--at", at, "--trust-anchor", root, "--detached", contract, "--detached", annex, file}},
		{"a flag, the file, the rest (the report of issue 17)", []string{"--offline", file, "--detached", contract, "--detached", annex, "--at", at, "--trust-anchor", root}},
		{"--flag=value forms around the file", []string{"--at=" + at, "--detached=" + contract, file, "--detached=" + annex, "--trust-anchor=" + root, "--offline"}},
		{"single dashes, mixed forms", []string{"-trust-anchor", root, "-detached", contract, file, "-offline=true", "-at=" + at, "-detached", annex}},
		{"boolean last", []string{"--detached", contract, "--at", at, file, "--trust-anchor", root, "--detached", annex, "--offline"}},
		{"the file after --", []string{"--offline", "--at", at, "--trust-anchor", root, "--detached", contract, "--detached", annex, "--", file}},
	}
	var want string
	for i, tt := range tests {
		code, out, logs := command(t, offline(t), append([]string{"validate"}, tt.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", tt.name, code, logs)
		}
		if i == 0 {
			want = out
			var sum verdict.ValidationSummary
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatal(err)
			}
			r := sum.Signatures[0]
			if r.Indication != verdict.TotalPassed || !slices.Equal(r.SignedData, []string{"contract.txt"}) || len(unsignedParts(r)) != 1 {
				t.Fatalf("%s: want TOTAL_PASSED over contract.txt, a warning about annex.txt; got %s %v %v\n%s", tt.name, r.Indication, r.SignedData, unsignedParts(r), logs)
			}
			continue
		}
		if out != want {
			t.Errorf("%s: the summary differs from %q's:\n%s\nwant\n%s", tt.name, tests[0].name, out, want)
		}
	}
}

func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestValidateCommandPAdESOffline: with --offline a PAdES-LT document is
// judged on its document security store alone. Fresh data lets it pass;
// data produced long before the signature leaves the revocation status
// unknown.
func TestValidateCommandPAdESOffline(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9") // nothing answers there
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	root := write(t, dir, "root.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.Root.Certificate.Raw}))
	signedAt := pki.ReferenceTime.Add(-24 * time.Hour)
	ltDocument := func(stale bool) string {
		d := pades.New(1)
		if err := d.Sign(pades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.T, SigningTime: signedAt}); err != nil {
			t.Fatal(err)
		}
		if err := d.AddDSS(pades.DSSOptions{PKI: p, At: signedAt.Add(time.Hour), StaleOCSP: stale}); err != nil {
			t.Fatal(err)
		}
		return write(t, dir, fmt.Sprintf("lt-stale-%v.pdf", stale), d.Bytes())
	}
	tests := []struct {
		name       string
		stale      bool
		indication verdict.Indication
		sub        verdict.SubIndication
	}{
		{"fresh DSS", false, "TOTAL_PASSED", ""},
		{"stale DSS", true, "INDETERMINATE", "TRY_LATER"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			code, out, logs := command(t, offline(t), "validate", ltDocument(tt.stale), "--offline",
				"--at="+pki.ReferenceTime.Format(time.RFC3339), "--trust-anchor", root)
			is.Equal(code, 0)
			if t.Failed() {
				t.Log(logs)
			}
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal([]byte(out), &sum))
			r := sum.Signatures[0]
			is.Equal(r.SignatureFormat, "PAdES_BASELINE_LT")
			is.Equal(r.Indication, tt.indication)
			var sub verdict.SubIndication
			if r.SubIndication != nil {
				sub = *r.SubIndication
			}
			is.Equal(sub, tt.sub)
		})
	}
}
