package main

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/svc-dss/dss/adapters/cmssign"
	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/adapters/seal"
	"github.com/svc-dss/dss/adapters/signclient"
)

const signUsage = `usage: signproxy sign FILE --url URL --tenant UUID --module UUID --kid KID --client-key FILE --key-label LABEL --certificate FILE [--algorithm RSA_PKCS1_V1_5|RSA_PSS|ECDSA] [--level B|T] [--tsa URL] [--format pades|cades] [--out FILE]`

// signTimeout bounds one signing: the sign request and, for level T, the
// time-stamp.
const signTimeout = time.Minute

// signCommand is `signproxy sign`: the reference on-premises proxy
// (docs/decisions/0043). It builds the PAdES or CAdES signature around
// the document itself and sends the signing server the digest of the
// signed attributes only; the document never leaves the machine.
type signCommand struct {
	file, out, format       string
	url, tenant, module     string
	kid, label, algorithm   string
	level, tsa              string
	clientKey               crypto.Signer
	chain                   []*x509.Certificate
	document                []byte
	clientKeyPath, certPath string
}

// usageError is a command line the command cannot run: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// parseSign reads the command line of `signproxy sign`. Every error names
// the option and what is wrong with it.
func parseSign(args []string, stderr io.Writer) (*signCommand, error) {
	var c signCommand
	fs := c.flags(stderr)
	files, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &usageError{err.Error()}
	}
	switch len(files) {
	case 0:
		return nil, usagef("no FILE to sign")
	case 1:
		c.file = files[0]
	default:
		return nil, usagef("one FILE only: unexpected argument %q", files[1])
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return &c, nil
}

// flags are the options of `signproxy sign`, read into c.
func (c *signCommand) flags(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("sign", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, signUsage); fs.PrintDefaults() }
	fs.StringVar(&c.url, "url", "", "the signing server's base `URL` (http or https)")
	fs.StringVar(&c.tenant, "tenant", "", "the tenant's `UUID`")
	fs.StringVar(&c.module, "module", "", "the `UUID` of the DSS module this proxy is")
	fs.StringVar(&c.kid, "kid", "", "the `KID` the client key is registered under")
	fs.StringVar(&c.clientKeyPath, "client-key", "", "PEM `FILE` of the client key that signs the tokens (EC or RSA private key)")
	fs.StringVar(&c.label, "key-label", "", "the signing key's `LABEL` in the tenant's partition")
	fs.StringVar(&c.certPath, "certificate", "", "PEM or DER `FILE`: the signing key's certificate first, then its issuers")
	fs.StringVar(&c.algorithm, "algorithm", "", "RSA_PKCS1_V1_5 (default for RSA), RSA_PSS or ECDSA (default for EC)")
	fs.StringVar(&c.level, "level", "", "B, or T with a signature time-stamp from --tsa (default B, T when --tsa is given)")
	fs.StringVar(&c.tsa, "tsa", "", "`URL` of an RFC 3161 time-stamping unit, for level T")
	fs.StringVar(&c.format, "format", "", "pades (a PDF, default for a file that starts with %PDF-) or cades (a detached CAdES of any file)")
	fs.StringVar(&c.out, "out", "", "where to write the result (default FILE-signed.pdf for PAdES, FILE.p7s for CAdES)")
	return fs
}

// parseInterleaved parses flags before and after the file arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return files, nil
		}
		files = append(files, args[0])
		args = args[1:]
	}
}

// check reads and checks every option, in the order of the usage line.
func (c *signCommand) check() error {
	u, err := url.Parse(c.url)
	switch {
	case c.url == "":
		return usagef("--url: missing: the signing server's base URL, such as http://127.0.0.1:8080")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return usagef("--url: %q is not an http or https URL", c.url)
	case u.Path != "" && u.Path != "/" || u.RawQuery != "":
		return usagef("--url: %q has a path or query: give the server's base URL, the command adds %s", c.url, signclient.SignPath)
	}
	c.url = strings.TrimSuffix(c.url, "/")
	for _, id := range []struct{ name, value string }{{"--tenant", c.tenant}, {"--module", c.module}} {
		if id.value == "" {
			return usagef("%s: missing", id.name)
		}
		if !isUUID(id.value) {
			return usagef("%s: %q is not a UUID", id.name, id.value)
		}
	}
	if c.kid == "" {
		return usagef("--kid: missing: the kid the client key is registered under")
	}
	if c.clientKeyPath == "" {
		return usagef("--client-key: missing: the PEM file of the client key")
	}
	if c.clientKey, err = readClientKey(c.clientKeyPath); err != nil {
		return usagef("--client-key: %v", err)
	}
	if c.label == "" {
		return usagef("--key-label: missing: the signing key's label in the partition")
	}
	if !isLabel(c.label) {
		return usagef("--key-label: %q is not a key label (1 to 64 of A-Z a-z 0-9 . _ -)", c.label)
	}
	if c.certPath == "" {
		return usagef("--certificate: missing: the signing key's certificate and its issuers")
	}
	if c.chain, err = keystore.ReadCertificateFile(c.certPath); err != nil {
		return usagef("--certificate: %v", err)
	}
	leaf := c.chain[0]
	switch leaf.PublicKey.(type) {
	case *rsa.PublicKey:
		if c.algorithm == "" {
			c.algorithm = signclient.RSAPKCS1v15
		}
		if c.algorithm != signclient.RSAPKCS1v15 && c.algorithm != signclient.RSAPSS {
			if c.algorithm == signclient.ECDSA {
				return usagef("--algorithm: ECDSA, but the certificate's key is an RSA key: RSA_PKCS1_V1_5 or RSA_PSS")
			}
			return usagef("--algorithm: %q is not one of RSA_PKCS1_V1_5, RSA_PSS, ECDSA", c.algorithm)
		}
	case *ecdsa.PublicKey:
		if c.algorithm == "" {
			c.algorithm = signclient.ECDSA
		}
		if c.algorithm != signclient.ECDSA {
			if c.algorithm == signclient.RSAPKCS1v15 || c.algorithm == signclient.RSAPSS {
				return usagef("--algorithm: %s, but the certificate's key is an ECDSA key: ECDSA", c.algorithm)
			}
			return usagef("--algorithm: %q is not one of RSA_PKCS1_V1_5, RSA_PSS, ECDSA", c.algorithm)
		}
	default:
		return usagef("--certificate: the first certificate's key is a %T: the server signs with RSA and ECDSA keys", leaf.PublicKey)
	}
	switch c.level {
	case "":
		c.level = "B"
		if c.tsa != "" {
			c.level = "T"
		}
	case "B":
		if c.tsa != "" {
			return usagef("--level: B, but --tsa is given: level T time-stamps the signature")
		}
	case "T":
		if c.tsa == "" {
			return usagef("--level: T needs --tsa, the time-stamping unit's URL")
		}
	default:
		return usagef("--level: %q is not B or T", c.level)
	}
	if c.tsa != "" {
		if u, err := url.Parse(c.tsa); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usagef("--tsa: %q is not an http or https URL", c.tsa)
		}
	}
	if c.document, err = os.ReadFile(c.file); err != nil {
		return usagef("FILE: %v", err)
	}
	isPDF := bytes.HasPrefix(c.document, []byte("%PDF-"))
	switch c.format {
	case "":
		c.format = "cades"
		if isPDF {
			c.format = "pades"
		}
	case "pades":
		if !isPDF {
			return usagef("--format: pades, but %s does not start with %%PDF-: sign it with --format cades", c.file)
		}
	case "cades":
	default:
		return usagef("--format: %q is not pades or cades", c.format)
	}
	if c.out == "" {
		c.out = c.file + ".p7s"
		if c.format == "pades" {
			c.out = strings.TrimSuffix(c.file, ".pdf") + "-signed.pdf"
		}
	}
	return nil
}

// readClientKey reads a PEM private key: PKCS #8, SEC 1 (EC) or PKCS #1
// (RSA).
func readClientKey(path string) (crypto.Signer, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(raw)
	if block == nil {
		return nil, fmt.Errorf("%s holds no PEM block", path)
	}
	var key any
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("%s holds a %q PEM block, not a private key", path, block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		return k, nil
	case *rsa.PrivateKey:
		return k, nil
	}
	return nil, fmt.Errorf("%s holds a %T: the tokens are signed with an EC or RSA key", path, key)
}

// runSign runs `signproxy sign`. Exit codes: 0 signed, 2 for a command line
// it cannot run, 1 when the signing failed (a refusal of the server
// prints its problem details).
func runSign(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseSign(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "sign: %v\n", err)
		fmt.Fprintln(stderr, signUsage)
		return 2
	}
	if err := c.run(ctx, stdout); err != nil {
		fmt.Fprintf(stderr, "sign: %v\n", err)
		return 1
	}
	return 0
}

// run signs the document and writes the result.
func (c *signCommand) run(ctx context.Context, stdout io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, signTimeout)
	defer cancel()
	httpClient := &http.Client{Timeout: signTimeout}
	client := &signclient.Client{URL: c.url, Tenant: c.tenant, Module: c.module, KID: c.kid, ClientKey: c.clientKey, HTTP: httpClient}
	key, err := client.Key(ctx, c.label, c.chain[0], c.algorithm)
	if err != nil {
		return err
	}
	var tsa *egress.TSA
	if c.tsa != "" {
		tsa = egress.NewTSA(httpClient, c.tsa)
	}
	var out []byte
	switch c.format {
	case "pades":
		opts := []seal.Option{seal.WithFieldName("Signature")}
		if c.algorithm == signclient.RSAPSS {
			opts = append(opts, seal.WithPSS())
		}
		var ts seal.Timestamper
		if tsa != nil {
			ts = tsa
		}
		s, err := seal.New(key, c.chain, ts, time.Now, opts...)
		if err != nil {
			return fmt.Errorf("--certificate: %w", err)
		}
		if out, err = s.PDF(ctx, c.document); err != nil {
			return describe(err)
		}
	case "cades":
		signer := cmssign.Signer{Certificate: c.chain[0], Chain: c.chain[1:], Key: key, PSS: c.algorithm == signclient.RSAPSS, SigningTime: time.Now()}
		if tsa != nil {
			signer.Timestamp = tsa.Timestamp
		}
		if out, err = cmssign.SignDetached(ctx, c.document, signer); err != nil {
			return describe(err)
		}
	}
	if err := os.WriteFile(c.out, out, 0o644); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	level := map[string]string{"pades": "PAdES", "cades": "CAdES"}[c.format] + "-" + c.level
	fmt.Fprintf(stdout, "wrote %s: %s by %q (key %s, request %s)\n", c.out, level, c.chain[0].Subject.CommonName, c.label, key.RequestID())
	return nil
}

// describe names the option behind a signing failure: a refusal of the
// server, or a signature that the certificate's key does not verify.
func describe(err error) error {
	if r := (*signclient.RefusalError)(nil); errors.As(err, &r) {
		return r
	}
	if errors.Is(err, signclient.ErrWrongKey) {
		return fmt.Errorf("--certificate or --key-label: %w", err)
	}
	return err
}

// isUUID reports whether s is a UUID in its textual form (RFC 9562): the
// server checks the same before anything else.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if r != '-' {
				return false
			}
		case !strings.ContainsRune("0123456789abcdefABCDEF", r):
			return false
		}
	}
	return true
}

// isLabel reports whether s is a key label of docs/signing-api.yaml: 1 to
// 64 of A-Z a-z 0-9 . _ -.
func isLabel(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
