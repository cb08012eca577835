package main

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/asn1"
	"encoding/hex"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cms"
	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// signFiles are the files of a proxy of the sign world: its client key,
// each signing key's certificate (by label, issued like the Swiss
// qualified signer for the key in the token), a PDF and a text file.
type signFiles struct {
	dir, clientKey, pdf, text string
	chains                    map[string]string
}

func newSignFiles(t *testing.T, w *signWorld) signFiles {
	t.Helper()
	dir := t.TempDir()
	f := signFiles{dir: dir, clientKey: filepath.Join(dir, "client-key.pem"), pdf: filepath.Join(dir, "doc.pdf"),
		text: filepath.Join(dir, "doc.txt"), chains: map[string]string{}}
	der, err := x509.MarshalPKCS8PrivateKey(w.a.key)
	if err != nil {
		t.Fatal(err)
	}
	write := func(path string, b []byte) {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(f.clientKey, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	write(f.pdf, fixture.New(1).Bytes())
	write(f.text, []byte("text\n"))
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	for i, label := range []string{"sign-rsa", "sign-p256"} {
		c, err := p.IssueLike(p.SignerCHQES, label, int64(0x7100+i), w.pubs[label])
		if err != nil {
			t.Fatal(err)
		}
		f.chains[label] = filepath.Join(dir, label+".pem")
		write(f.chains[label], append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw}),
			pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.IntermediateCH.Certificate.Raw})...))
	}
	return f
}

// args are the options of proxy A signing file with label, changed by
// set (name to value; "" drops the option).
func (f signFiles) args(w *signWorld, file, label string, set map[string]string) []string {
	opts := [][2]string{{"--url", w.url}, {"--tenant", w.a.tenant}, {"--module", w.a.module}, {"--kid", w.a.kid},
		{"--client-key", f.clientKey}, {"--key-label", label}, {"--certificate", f.chains[label]}}
	for name, v := range set {
		found := false
		for i := range opts {
			if opts[i][0] == name {
				opts[i][1], found = v, true
			}
		}
		if !found {
			opts = append(opts, [2]string{name, v})
		}
	}
	args := []string{file}
	for _, o := range opts {
		if o[1] != "" {
			args = append(args, o[0], o[1])
		}
	}
	return args
}

// signproxy sign against a running signer: a PDF and a file with each key
// and each algorithm, the signature checked by the validator's CMS
// reader; the document's bytes are not in what the server saw.
func TestSignCommand(t *testing.T) {
	t.Parallel()
	w := newSignWorld(t)
	f := newSignFiles(t, w)
	// Level T: the fixture PKI's time-stamping unit on a loopback port.
	tsa := pki.Start(t).PKI.TSAURL()
	tests := []struct {
		name, file, label, algorithm, out string
		tsa                               string
	}{
		{"PAdES, RSA PKCS#1 v1.5", f.pdf, "sign-rsa", "", filepath.Join(f.dir, "doc-signed.pdf"), ""},
		{"PAdES, RSA-PSS", f.pdf, "sign-rsa", "RSA_PSS", filepath.Join(f.dir, "pss.pdf"), ""},
		{"PAdES, ECDSA", f.pdf, "sign-p256", "", filepath.Join(f.dir, "ec.pdf"), ""},
		{"PAdES-T, ECDSA", f.pdf, "sign-p256", "", filepath.Join(f.dir, "ec-t.pdf"), tsa},
		{"CAdES, RSA", f.text, "sign-rsa", "", filepath.Join(f.dir, "doc.txt.p7s"), ""},
		{"CAdES, ECDSA", f.text, "sign-p256", "ECDSA", filepath.Join(f.dir, "ec.p7s"), ""},
		{"CAdES-T, RSA-PSS", f.text, "sign-rsa", "RSA_PSS", filepath.Join(f.dir, "pss-t.p7s"), tsa},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			set := map[string]string{"--algorithm": tt.algorithm, "--tsa": tt.tsa}
			if !strings.HasSuffix(tt.out, "-signed.pdf") && !strings.HasSuffix(tt.out, "doc.txt.p7s") {
				set["--out"] = tt.out // else the default name
			}
			var stdout, stderr bytes.Buffer
			code := runSign(context.Background(), f.args(w, tt.file, tt.label, set), &stdout, &stderr)
			is.Equal(code, 0) // stderr.String()
			is.True(strings.HasPrefix(stdout.String(), "wrote "+tt.out+": "))
			out, err := os.ReadFile(tt.out)
			is.NoErr(err)
			der := out
			if bytes.HasPrefix(out, []byte("%PDF-")) {
				// The CMS is the hex string of /Contents.
				at := bytes.Index(out, []byte("/Contents <")) + len("/Contents <")
				end := bytes.IndexByte(out[at:], '>')
				full := make([]byte, end/2)
				_, err := hex.Decode(full, out[at:at+end])
				is.NoErr(err)
				var ci asn1.RawValue // the CMS, without the zeros after it
				_, err = asn1.Unmarshal(full, &ci)
				is.NoErr(err)
				der = ci.FullBytes
			}
			sd, err := cms.Parse(der)
			is.NoErr(err)
			is.Equal(len(sd.SignerInfos), 1)
			// A signature time-stamp exactly at level T.
			is.Equal(len(sd.SignerInfos[0].UnsignedAttrs.Find(cms.OIDAttrTimeStampToken)) == 1, tt.tsa != "")
			// CAdES carries its signing time as an attribute, PAdES in /M.
			is.Equal(len(sd.SignerInfos[0].SignedAttrs.Find(cms.OIDAttrSigningTime)) == 1, tt.file == f.text)
		})
	}
	is := is.New(t)
	doc, _ := os.ReadFile(f.text)
	is.True(!strings.Contains(w.signer.Stdout(), strings.TrimSpace(string(doc))))
}

// Every option's error names the option and what is wrong, exit code 2;
// a refusal of the server prints its problem details, exit code 1.
func TestSignCommandErrors(t *testing.T) {
	t.Parallel()
	w := newSignWorld(t)
	f := newSignFiles(t, w)
	notKey := filepath.Join(f.dir, "not-a-key.pem")
	if err := os.WriteFile(notKey, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		file  string
		label string
		set   map[string]string
		code  int
		want  string
	}{
		{"no url", f.pdf, "sign-p256", map[string]string{"--url": ""}, 2, "sign: --url: missing: the signing server's base URL, such as http://127.0.0.1:8080"},
		{"url not http", f.pdf, "sign-p256", map[string]string{"--url": "ftp://x"}, 2, `sign: --url: "ftp://x" is not an http or https URL`},
		{"url with the path", f.pdf, "sign-p256", map[string]string{"--url": "http://127.0.0.1:1/api/server-signing/sign-ska"}, 2,
			`sign: --url: "http://127.0.0.1:1/api/server-signing/sign-ska" has a path or query: give the server's base URL, the command adds /api/server-signing/sign-ska`},
		{"no tenant", f.pdf, "sign-p256", map[string]string{"--tenant": ""}, 2, "sign: --tenant: missing"},
		{"tenant not a UUID", f.pdf, "sign-p256", map[string]string{"--tenant": "tenant-a"}, 2, `sign: --tenant: "tenant-a" is not a UUID`},
		{"module not a UUID", f.pdf, "sign-p256", map[string]string{"--module": "1234"}, 2, `sign: --module: "1234" is not a UUID`},
		{"no kid", f.pdf, "sign-p256", map[string]string{"--kid": ""}, 2, "sign: --kid: missing: the kid the client key is registered under"},
		{"no client key", f.pdf, "sign-p256", map[string]string{"--client-key": ""}, 2, "sign: --client-key: missing: the PEM file of the client key"},
		{"client key not PEM", f.pdf, "sign-p256", map[string]string{"--client-key": notKey}, 2, "sign: --client-key: " + notKey + " holds no PEM block"},
		{"client key a certificate", f.pdf, "sign-p256", map[string]string{"--client-key": f.chains["sign-rsa"]}, 2,
			"sign: --client-key: " + f.chains["sign-rsa"] + ` holds a "CERTIFICATE" PEM block, not a private key`},
		{"no key label", f.pdf, "sign-p256", map[string]string{"--key-label": ""}, 2, "sign: --key-label: missing: the signing key's label in the partition"},
		{"bad key label", f.pdf, "sign-p256", map[string]string{"--key-label": "a b"}, 2, `sign: --key-label: "a b" is not a key label (1 to 64 of A-Z a-z 0-9 . _ -)`},
		{"no certificate", f.pdf, "sign-p256", map[string]string{"--certificate": ""}, 2, "sign: --certificate: missing: the signing key's certificate and its issuers"},
		{"certificate not one", f.pdf, "sign-p256", map[string]string{"--certificate": notKey}, 2, "sign: --certificate: keystore: " + notKey + ": cert: malformed: certificate 0: not a DER SEQUENCE"},
		{"ECDSA for an RSA key", f.pdf, "sign-rsa", map[string]string{"--algorithm": "ECDSA"}, 2, "sign: --algorithm: ECDSA, but the certificate's key is an RSA key: RSA_PKCS1_V1_5 or RSA_PSS"},
		{"RSA for an EC key", f.pdf, "sign-p256", map[string]string{"--algorithm": "RSA_PSS"}, 2, "sign: --algorithm: RSA_PSS, but the certificate's key is an ECDSA key: ECDSA"},
		{"unknown algorithm", f.pdf, "sign-p256", map[string]string{"--algorithm": "EdDSA"}, 2, `sign: --algorithm: "EdDSA" is not one of RSA_PKCS1_V1_5, RSA_PSS, ECDSA`},
		{"unknown level", f.pdf, "sign-p256", map[string]string{"--level": "LTA"}, 2, `sign: --level: "LTA" is not B or T`},
		{"level T without a TSA", f.pdf, "sign-p256", map[string]string{"--level": "T"}, 2, "sign: --level: T needs --tsa, the time-stamping unit's URL"},
		{"level B with a TSA", f.pdf, "sign-p256", map[string]string{"--level": "B", "--tsa": "http://127.0.0.1:1/tsa"}, 2, "sign: --level: B, but --tsa is given: level T time-stamps the signature"},
		{"TSA not a URL", f.pdf, "sign-p256", map[string]string{"--tsa": "tsa.example"}, 2, `sign: --tsa: "tsa.example" is not an http or https URL`},
		{"unknown format", f.pdf, "sign-p256", map[string]string{"--format": "xades"}, 2, `sign: --format: "xades" is not pades or cades`},
		{"PAdES of a text", f.text, "sign-p256", map[string]string{"--format": "pades"}, 2, "sign: --format: pades, but " + f.text + " does not start with %PDF-: sign it with --format cades"},
		{"no file", "", "sign-p256", nil, 2, "sign: no FILE to sign"},
		{"the certificate of another key", f.pdf, "sign-p256", map[string]string{"--certificate": f.chains["sign-rsa"], "--algorithm": "RSA_PKCS1_V1_5"}, 1,
			"sign: the signing server refused (400 Bad Request): urn:svc-dss:problem:bad-request: the key is an EC key; ask for ECDSA (request "},
		{"a kid the server does not know", f.pdf, "sign-p256", map[string]string{"--kid": "proxy-zz"}, 1,
			"sign: the signing server refused (401 Unauthorized): urn:svc-dss:problem:unauthenticated: the token's signature does not verify with a key registered for its tenant and kid (request "},
		{"a module the client key is not registered for", f.pdf, "sign-p256", map[string]string{"--module": w.a2.module}, 1,
			"sign: the signing server refused (403 Forbidden): urn:svc-dss:problem:forbidden: the token's key is registered for another module than its module claim (request "},
		{"no such key label", f.pdf, "sign-p256", map[string]string{"--key-label": "nope"}, 1,
			"sign: the signing server refused (400 Bad Request): urn:svc-dss:problem:bad-request: keyLabel names no signing key of the tenant's partition (request "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			args := f.args(w, tt.file, tt.label, tt.set)
			if tt.file == "" {
				args = args[1:]
			}
			var stdout, stderr bytes.Buffer
			code := runSign(context.Background(), args, &stdout, &stderr)
			is.Equal(code, tt.code)
			first, _, _ := strings.Cut(stderr.String(), "\n")
			if tt.code == 1 {
				is.True(strings.HasPrefix(first, tt.want)) // first
			} else {
				is.Equal(first, tt.want)
			}
			is.Equal(stdout.String(), "")
		})
	}
}
