package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// The documents below each defeat one check that decides trust, and
// nothing else: the signer is trusted and its revocation status is
// known, so that the verdict turns on that check alone. They complete,
// through the API and the validate command, the checks the other tests
// reach there only with CAdES (TestValidateCAdES, the samples) or only
// with the corpus (TestPAdESConformance), and the forged certificates
// of forgery_test.go; for JAdES, a changed payload, an unknown crit and
// a time-stamp copied from another signature.

// A checkCase is a document and the verdict of its one signature.
type checkCase struct {
	name, file string
	data       []byte
	format     string
	want       string // indication/sub-indication, "TOTAL_PASSED/" when it passes
}

// checkDocuments signs the documents of the tests below with signer (a
// signer of p's intermediate) at signedAt; the revoked-key cases sign
// with p.Revoked before its revocation.
func checkDocuments(t *testing.T, p *pki.PKI, signer *pki.Identity, signedAt time.Time) []checkCase {
	t.Helper()
	pdf := func(o pades.Options) *pades.Document {
		t.Helper()
		d := pades.New(1)
		o.PKI, o.Level, o.SigningTime = p, cades.B, signedAt
		if o.Signer == nil {
			o.Signer = signer
		}
		if err := d.Sign(o); err != nil {
			t.Fatal(err)
		}
		return d
	}
	tampered, err := pades.TamperSignedByte(pdf(pades.Options{}).Bytes())
	if err != nil {
		t.Fatal(err)
	}
	genuineT, foreignT := revokedKeyTimestamped(t, p)
	jws := func(o jades.Options) []byte {
		t.Helper()
		o.PKI = p
		if o.Signer == nil {
			o.Signer, o.SigningTime = signer, signedAt
		}
		sig, _, err := jades.Sign([]byte(`{"contract":"signed"}`), o)
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	revokedAt := pki.RevocationTime.Add(-30 * 24 * time.Hour)
	return []checkCase{
		// A JWS Payload has no digest of its own: the signature value,
		// over it, does not verify.
		{"JAdES payload changed", "changed.json", jws(jades.Options{Defect: jades.AlteredPayload}), "JAdES_BASELINE_B", "TOTAL_FAILED/SIG_CRYPTO_FAILURE"},
		// crit names what the validator does not understand.
		{"JAdES unknown crit", "crit.json", jws(jades.Options{Defect: jades.UnknownCrit}), "JAdES_BASELINE_B", "TOTAL_FAILED/FORMAT_FAILURE"},
		// A JAdES-T of p.Revoked, its sigTst before the revocation; then
		// the same with a sigTst copied from another signature.
		{"JAdES-T of a revoked key, time-stamped before the revocation", "revoked-t.json",
			jws(jades.Options{Signer: p.Revoked, SigningTime: revokedAt, Level: jades.T}), "JAdES_BASELINE_T", "TOTAL_PASSED/"},
		{"JAdES-T of a revoked key, a time-stamp copied from another signature", "revoked-copied-t.json",
			jws(jades.Options{Signer: p.Revoked, SigningTime: revokedAt, Level: jades.T, Defect: jades.CopiedTimestamp}), "JAdES_BASELINE_T", "INDETERMINATE/REVOKED_NO_POE"},
		// The message-digest of a PAdES signature is over its byte range
		// (EN 319 102-1 5.2.7): a byte of the page text changed.
		{"PAdES signed byte changed", "changed.pdf", tampered, "PAdES_BASELINE_B", "TOTAL_FAILED/HASH_FAILURE"},
		// The signature value of the CMS in /Contents, which no byte
		// range covers: the signed attributes and the document intact.
		{"PAdES signature value changed", "bad-value.pdf", breakPAdESSignatureValue(t, pdf(pades.Options{}).Bytes()), "PAdES_BASELINE_B", "TOTAL_FAILED/SIG_CRYPTO_FAILURE"},
		// A /ByteRange overlapping /Contents, over which the CMS was made:
		// the cryptography holds, only the structural check fails it.
		{"PAdES overlapping ByteRange", "overlap.pdf", pdf(pades.Options{Defect: pades.OverlappingByteRange}).Bytes(), "PAdES_BASELINE_B", "TOTAL_FAILED/FORMAT_FAILURE"},
		// A CAdES-T of p.Revoked, time-stamped before the revocation:
		// the time-stamp is a proof of existence before it (5.5, 5.6).
		{"CAdES-T of a revoked key, time-stamped before the revocation", "revoked-t.p7m", genuineT, "CAdES_BASELINE_T", "TOTAL_PASSED/"},
		// The same signature with a genuine token of the same time that
		// time-stamps other data: without its imprint the token proves
		// nothing about this signature, so the revocation decides.
		{"CAdES-T of a revoked key, a foreign time-stamp token", "revoked-foreign-t.p7m", foreignT, "CAdES_BASELINE_T", "INDETERMINATE/REVOKED_NO_POE"},
	}
}

// revokedKeyTimestamped returns a CAdES-T of p.Revoked signed and
// time-stamped before its revocation, and the same signature whose
// signature-time-stamp token is replaced by a token of the fixture TSA
// with the same genTime over other data: what a holder of the
// compromised key makes with any token issued before the revocation.
func revokedKeyTimestamped(t *testing.T, p *pki.PKI) (genuine, foreign []byte) {
	t.Helper()
	signedAt := pki.RevocationTime.Add(-30 * 24 * time.Hour)
	tsAt := signedAt.Add(time.Minute)
	genuine, err := cades.Sign([]byte("contract text, signed"), cades.Options{PKI: p, Signer: p.Revoked, Level: cades.T,
		SigningTime: signedAt, TimestampTime: tsAt})
	if err != nil {
		t.Fatal(err)
	}
	sd, err := cms.Parse(genuine)
	if err != nil {
		t.Fatal(err)
	}
	attrs := sd.SignerInfos[0].UnsignedAttrs.Find(cms.OIDAttrTimeStampToken)
	if len(attrs) != 1 || len(attrs[0].Values) != 1 {
		t.Fatal("the fixture has not one signature-time-stamp")
	}
	token := attrs[0].Values[0]
	// The token is replaced in place: one of the same length, so that no
	// enclosing length changes (its serial number, derived from the
	// imprint, varies in length).
	for i := 0; ; i++ {
		sum := sha256.Sum256(fmt.Appendf(nil, "other data %d", i))
		other, err := cades.TimestampToken(p, sum[:], tsAt)
		if err != nil {
			t.Fatal(err)
		}
		if len(other) == len(token) {
			if bytes.Count(genuine, token) != 1 {
				t.Fatal("the token is not found once in the signature")
			}
			return genuine, bytes.Replace(genuine, token, other, 1)
		}
		if i == 100 {
			t.Fatal("no token of the same length")
		}
	}
}

// breakPAdESSignatureValue flips the last byte of the CMS in the last
// /Contents of pdf: the last byte of the signer's signature value in a
// PAdES-B signature, which has no unsigned attributes.
func breakPAdESSignatureValue(t *testing.T, pdf []byte) []byte {
	t.Helper()
	i := bytes.LastIndex(pdf, []byte("/Contents <"))
	if i < 0 {
		t.Fatal("no /Contents")
	}
	i += len("/Contents <")
	j := bytes.IndexByte(pdf[i:], '>')
	der, err := hex.DecodeString(string(pdf[i : i+j]))
	if err != nil {
		t.Fatal(err)
	}
	var ci asn1.RawValue
	rest, err := asn1.Unmarshal(der, &ci)
	if err != nil {
		t.Fatal(err)
	}
	n := len(der) - len(rest) // the CMS, without the zero padding
	at := i + 2*(n-1)
	b, err := hex.DecodeString(string(pdf[at : at+2]))
	if err != nil {
		t.Fatal(err)
	}
	out := bytes.Clone(pdf)
	hex.Encode(out[at:at+2], []byte{b[0] ^ 0xff}) // lower case, as the fixture writes it
	return out
}

// expectCheck checks the verdict of the one signature of a checkCase.
func expectCheck(t *testing.T, tc checkCase, sum verdict.ValidationSummary) {
	t.Helper()
	if len(sum.Signatures) != 1 {
		t.Fatalf("%d signatures, want 1", len(sum.Signatures))
	}
	r := sum.Signatures[0]
	sub := ""
	if r.SubIndication != nil {
		sub = r.SubIndication.String()
	}
	if got := r.Indication.String() + "/" + sub; got != tc.want || r.SignatureFormat != tc.format {
		t.Errorf("%s %s, want %s %s", r.SignatureFormat, got, tc.format, tc.want)
	}
	if sum.Valid != (tc.want == "TOTAL_PASSED/") {
		t.Errorf("valid %v", sum.Valid)
	}
}

// TestTrustChecksAPI posts the documents of checkDocuments to POST
// /api/validate of a validator trusting the fixture lists, at the
// current time.
func TestTrustChecksAPI(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t)
	for _, tc := range checkDocuments(t, srv.PKI, srv.PKI.SignerRSAQC, time.Now().Add(-time.Hour).Truncate(time.Second)) {
		t.Run(tc.name, func(t *testing.T) {
			res, body := post(t, s.URL, map[string][]byte{"file": tc.data})
			if res.StatusCode != 200 {
				t.Fatalf("status %d: %s", res.StatusCode, body)
			}
			var sum verdict.ValidationSummary
			if err := json.Unmarshal(body, &sum); err != nil {
				t.Fatal(err)
			}
			expectCheck(t, tc, sum)
		})
	}
}

// TestTrustChecksCommand runs `validate` on the same documents at
// pki.ReferenceTime, with the fixture root as --trust-anchor and the
// fixture PKI answering OCSP and CRL requests as of that time.
func TestTrustChecksCommand(t *testing.T) {
	t.Parallel()
	srv := pki.Start(t)
	srv.SetClock(func() time.Time { return pki.ReferenceTime })
	dir := t.TempDir()
	root := write(t, dir, "root.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.PKI.Root.Certificate.Raw}))
	env := append(offline(t), "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false") // the fixture PKI is on 127.0.0.1
	for _, tc := range checkDocuments(t, srv.PKI, srv.PKI.SignerRSA, pki.ReferenceTime.Add(-24*time.Hour)) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, logs := command(t, env, "validate", write(t, t.TempDir(), tc.file, tc.data),
				"--at="+pki.ReferenceTime.Format(time.RFC3339), "--trust-anchor", root)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, logs)
			}
			var sum verdict.ValidationSummary
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatal(err)
			}
			expectCheck(t, tc, sum)
		})
	}
}
