package tsp

import (
	"encoding/asn1"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/fixtures/realworld"
)

// Attributes that hold time-stamp tokens (RFC 5126, ETSI EN 319 122-1).
var timeStampAttributes = []struct {
	oid  asn1.ObjectIdentifier
	name string
}{
	{cms.OIDAttrTimeStampToken, "signature-time-stamp"},
	{cms.OIDAttrContentTimeStamp, "content-time-stamp"},
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 25}, "escTimeStamp"},
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 26}, "certCRLTimestamp"},
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 27}, "archive-time-stamp"},
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 48}, "archive-time-stamp-v2"},
	{cms.OIDAttrArchiveTimeStampV3, "archive-time-stamp-v3"},
}

// corpusFiles returns id and path of the CAdES files of the corpus.
func corpusFiles(t *testing.T) [][2]string {
	dir := realworld.Dir()
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("shared corpus not found at %s: skipping the real-world time-stamp checks", dir)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	header, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	var out [][2]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec[col["format"]] != "CAdES" {
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(dir, "files", rec[col["id"]]+".*"))
		for _, m := range matches {
			if base := filepath.Base(m); !strings.Contains(base, ".detached-") && !strings.Contains(base, ".extra-") {
				out = append(out, [2]string{rec[col["id"]], m})
			}
		}
	}
}

// TestCorpusTimeStamps parses every time-stamp token of the corpus CAdES
// files and verifies its signature, its ESS signing-certificate and, for
// signature time-stamps, its imprint over the signature value.
func TestCorpusTimeStamps(t *testing.T) {
	is := is.New(t)
	files := corpusFiles(t)
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-34s %-24s %-10s %-22s %s\n", "id", "attribute", "signature", "ESS", "imprint")
	var tokens, sigOK, essOK, imprintOK, imprintChecked int
	// Tokens the source project (DSS) asserts to be broken, and how.
	known := map[string]string{
		// The time-stamp is INDETERMINATE/NO_SIGNING_CERTIFICATE_FOUND:
		// the ESS attribute names a certificate that is not there.
		"cades-029-wrong-sign-cert-ref": "signer-not-found",
		// TAMPERED signature time-stamp (hash modified): the imprint
		// and so the TSTInfo the TSA signed were changed.
		"cades-025-bpt-modified-ts-hash": "digest-mismatch",
	}
	var unsupported []string
	for _, f := range files {
		id, path := f[0], f[1]
		data, err := os.ReadFile(path)
		is.NoErr(err)
		sd, err := cms.Parse(data)
		is.NoErr(err)
		var signers []*cms.SignerInfo
		var walk func(si *cms.SignerInfo)
		walk = func(si *cms.SignerInfo) {
			signers = append(signers, si)
			for _, cs := range si.CounterSignatures {
				walk(cs)
			}
		}
		for _, si := range sd.SignerInfos {
			walk(si)
		}
		for _, si := range signers {
			for _, kind := range timeStampAttributes {
				attrs := append(si.SignedAttrs.Find(kind.oid), si.UnsignedAttrs.Find(kind.oid)...)
				for _, a := range attrs {
					for _, v := range a.Values {
						tokens++
						tok, err := Parse(v)
						if err != nil {
							t.Errorf("%s: %s does not parse: %v", id, kind.name, err)
							continue
						}
						sigRes, essRes, impRes := "ok", "ok", "-"
						_, err = tok.Verify(VerifyOptions{Certificates: sd.Certificates})
						switch {
						case err == nil:
							sigOK++
							essOK++
						case errors.Is(err, ErrSigningCertificateMismatch), errors.Is(err, ErrNoSigningCertificate):
							sigOK++
							essRes = "MISMATCH"
							if errors.Is(err, ErrNoSigningCertificate) {
								essRes = "absent"
							}
						default:
							sigRes, essRes = short(err), "-"
						}
						if kind.oid.Equal(cms.OIDAttrTimeStampToken) {
							imprintChecked++
							impRes = "ok"
							if err := tok.CheckImprint(si.Signature); err != nil {
								impRes = short(err)
							} else {
								imprintOK++
							}
						}
						fmt.Fprintf(&table, "%-34s %-24s %-10s %-22s %s\n", id, kind.name, sigRes, essRes, impRes)
						switch {
						case sigRes == "unsupported":
							unsupported = append(unsupported, fmt.Sprintf("%s %s: %v", id, kind.name, err))
						case sigRes != "ok" && sigRes != known[id]:
							t.Errorf("%s: %s signature: %v", id, kind.name, err)
						case essRes != "ok" && essRes != "-":
							t.Errorf("%s: %s: ESS %s", id, kind.name, essRes)
						case impRes != "ok" && impRes != "-" && known[id] == "":
							t.Errorf("%s: %s: imprint %s, not known to be wrong", id, kind.name, impRes)
						}
					}
				}
			}
		}
	}
	t.Logf("corpus time-stamp tokens:%s", table.String())
	t.Logf("%d tokens: %d signatures verify, %d ESS references match, %d of %d signature time-stamp imprints match",
		tokens, sigOK, essOK, imprintOK, imprintChecked)
	for _, u := range unsupported {
		t.Logf("unsupported: %s", u)
	}
	// A token whose signature is unsupported is only logged: the floors
	// (today's counts) make a verifier that starts refusing tokens, or a
	// reader that stops finding them, fail the test.
	const tokensFloor, sigFloor, essFloor, imprintFloor = 16, 13, 13, 9
	if tokens < tokensFloor || sigOK < sigFloor || essOK < essFloor || imprintOK < imprintFloor {
		t.Errorf("%d tokens, %d signatures verified, %d ESS references matched, %d imprints matched: below the floors %d, %d, %d, %d",
			tokens, sigOK, essOK, imprintOK, tokensFloor, sigFloor, essFloor, imprintFloor)
	}
}

func short(err error) string {
	switch {
	case errors.Is(err, cms.ErrDigestMismatch):
		return "digest-mismatch"
	case errors.Is(err, cms.ErrSignatureInvalid):
		return "sig-invalid"
	case errors.Is(err, cms.ErrSignerNotFound):
		return "signer-not-found"
	case errors.Is(err, cms.ErrUnsupported), errors.Is(err, ErrUnsupported):
		return "unsupported"
	case errors.Is(err, ErrImprintMismatch):
		return "MISMATCH"
	}
	return "error"
}
