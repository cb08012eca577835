package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// keys are the names of a JSON object's members, sorted.
func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// hasKeys reports a missing member of m among want.
func hasKeys(t *testing.T, what string, m map[string]any, want ...string) {
	t.Helper()
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("%s lacks %q: has %v", what, k, keys(m))
		}
	}
}

// checkReadable checks the members issue 23 adds to a summary, as
// docs/validate-api.md documents them, on a T-level CAdES signature by
// the RSA qualified signer, whose anchor comes from anchorSource.
func checkReadable(t *testing.T, body []byte, p *pki.PKI, anchorSource string) {
	t.Helper()
	is := is.New(t)
	var doc map[string]any
	is.NoErr(json.Unmarshal(body, &doc))
	is.Equal(doc["summary"], verdict.SentenceDocumentValid.English())
	s := doc["signatures"].([]any)[0].(map[string]any)
	hasKeys(t, "signature", s, "signedBy", "signingTime", "bestSignatureTime", "signatureScope", "certificateChain", "summary")
	is.Equal(s["summary"], "The signature is valid.")

	by := s["signedBy"].(map[string]any)
	hasKeys(t, "signedBy", by, "kind", "name", "pseudonym", "certificate")
	is.Equal(by["kind"], "person")
	is.Equal(by["name"], p.SignerRSAQC.Certificate.Subject.CommonName)
	cert := by["certificate"].(map[string]any)
	is.Equal(keys(cert), []string{"issuer", "notAfter", "notBefore", "serialNumber", "subject"})
	is.Equal(cert["serialNumber"], p.SignerRSAQC.Certificate.SerialNumber.Text(16))

	signing, err := time.Parse(time.RFC3339, s["signingTime"].(string))
	is.NoErr(err)
	best, err := time.Parse(time.RFC3339, s["bestSignatureTime"].(string))
	is.NoErr(err)
	is.True(best.After(signing)) // the time-stamp follows the claimed time
	ts := s["timestamps"].([]any)[0].(map[string]any)
	is.Equal(s["bestSignatureTime"], ts["generationTime"])

	scope := s["signatureScope"].([]any)[0].(map[string]any)
	is.Equal(keys(scope), []string{"description", "kind", "name"})
	is.Equal(scope["kind"], "FULL")

	chain := s["certificateChain"].([]any)
	is.True(len(chain) >= 2)
	leaf, anchor := chain[0].(map[string]any), chain[len(chain)-1].(map[string]any)
	hasKeys(t, "chain element", leaf, "subject", "issuer", "serialNumber", "notBefore", "notAfter", "trustAnchor", "trustedList", "revocation")
	is.Equal(leaf["trustAnchor"], false)
	rev := leaf["revocation"].(map[string]any)
	is.Equal(keys(rev), []string{"embedded", "nextUpdate", "producedAt", "revokedAt", "source", "status", "thisUpdate"})
	is.Equal(rev["status"], "GOOD")
	is.Equal(anchor["trustAnchor"], true)
	is.Equal(anchor["anchorSource"], anchorSource)
	if anchorSource == verdict.AnchorTrustedList {
		is.Equal(keys(anchor["trustedList"].(map[string]any)), []string{"authenticated", "territory", "trustFramework"})
	} else {
		is.Equal(anchor["trustedList"], nil)
	}

	snap := doc["trustData"].(map[string]any)["snapshot"].(map[string]any)
	is.Equal(keys(snap), []string{"lists", "privateAnchors", "sha256"})
	is.Equal(len(snap["sha256"].(string)), 64)
	if lists := snap["lists"].([]any); anchorSource == verdict.AnchorTrustedList {
		is.True(len(lists) > 0)
		is.Equal(keys(lists[0].(map[string]any)), []string{"kind", "sequenceNumber", "sha256", "territory"})
	}
}

// Issue 23: POST /api/validate answers who signed, when (claimed and
// proved), what the signature covers, its chain with the revocation
// data checked, a sentence per signature and for the document, and the
// trust snapshot, as docs/validate-api.md documents them.
func TestValidateReadableVerdict(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t)
	sig, err := cades.Sign([]byte("contract"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.T,
		SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	res, body := post(t, s.URL, map[string][]byte{"file": sig})
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	checkReadable(t, body, srv.PKI, verdict.AnchorTrustedList)
}

// The validate command prints the same members; here the root is a
// private anchor.
func TestValidateCommandReadableVerdict(t *testing.T) {
	t.Parallel()
	srv := pki.Start(t)
	sig, err := cades.Sign([]byte("contract"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.T,
		SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := write(t, dir, "contract.p7m", sig)
	root := write(t, dir, "root.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.PKI.Root.Certificate.Raw}))
	code, out, logs := command(t, append(offline(t), "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false"), "validate", file, "--trust-anchor", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, logs)
	}
	checkReadable(t, []byte(out), srv.PKI, verdict.AnchorPrivateCA)
	var sum verdict.ValidationSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	rootSum := sha256.Sum256(srv.PKI.Root.Certificate.Raw)
	is.New(t).Equal(sum.TrustData.Snapshot.PrivateAnchors, []string{hex.EncodeToString(rootSum[:])}) // the anchor given, by its digest
}

// docs/validate-api.md documents every member the summary adds for
// people: each JSON name of the types below appears in it, quoted.
func TestValidateAPIDocsNameTheReadableMembers(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/validate-api.md")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for f := range typ.Fields() {
			if f.Anonymous {
				walk(f.Type)
				continue
			}
			if name := strings.Split(f.Tag.Get("json"), ",")[0]; name != "-" {
				names = append(names, name)
			}
		}
	}
	for _, v := range []any{verdict.SignedBy{}, verdict.Certificate{}, verdict.SignatureScope{}, verdict.ChainCertificate{},
		verdict.AnchorList{}, verdict.RevocationStatus{}, verdict.TrustSnapshot{}, verdict.SnapshotList{}} {
		walk(reflect.TypeOf(v))
	}
	names = append(names, "signedBy", "signingTime", "bestSignatureTime", "signatureScope", "certificateChain", "summary", "snapshot")
	for _, n := range names {
		if !strings.Contains(string(doc), "`"+n+"`") && !strings.Contains(string(doc), "`"+n+"[]`") && !strings.Contains(string(doc), "."+n+"`") {
			t.Errorf("docs/validate-api.md does not name %q", n)
		}
	}
	for _, k := range []verdict.ScopeKind{verdict.ScopeFull, verdict.ScopePartial, verdict.ScopeDigest, verdict.ScopeCounterSignature} {
		if !strings.Contains(string(doc), "`"+string(k)+"`") {
			t.Errorf("docs/validate-api.md does not name the scope kind %s", k)
		}
	}
}
