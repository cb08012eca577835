package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/xades"
)

// unsignedParts are the messages of r's DETACHED_PART_NOT_SIGNED warnings.
func unsignedParts(r verdict.SignatureReport) []string {
	var out []string
	for _, w := range r.Warnings {
		if w.Code == verdict.CodeDetachedPartNotSigned {
			out = append(out, w.Message)
		}
	}
	return out
}

// Issue 16, through POST /api/validate: of two detached parts, the
// summary names the one the signature covers (signedData, by the part's
// file name) and warns of the other.
func TestValidateDetachedPartsREST(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, s := signedWorld(t)
	content := []byte("contract text, signed")
	sig, err := cades.Sign(content, cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B, Detached: true,
		SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	is.NoErr(err)
	// post names each file after its part: detached.bin, detached#2.bin.
	res, body := post(t, s.URL, map[string][]byte{"file": sig, "detached": []byte("an annex nobody signed"), "detached#2": content})
	is.Equal(res.StatusCode, 200)
	is.True(strings.Contains(string(body), `"signedData":["detached#2.bin"]`))
	var sum verdict.ValidationSummary
	is.NoErr(json.Unmarshal(body, &sum))
	r := sum.Signatures[0]
	is.Equal(r.Indication, verdict.TotalPassed)
	is.Equal(r.SignedData, []string{"detached#2.bin"})
	warned := unsignedParts(r)
	is.Equal(len(warned), 1)
	is.True(strings.Contains(warned[0], `"detached.bin"`)) // names the part no signature covers
}

// Issue 22, through POST /api/validate: a counter-signature is reported
// as a signature of its own after its parent, counterSignatureOf naming
// the parent's signatureId, and counted in signatureCount; the parent's
// report has no counterSignatureOf (decision 0017).
func TestValidateCounterSignatureREST(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, s := signedWorld(t)
	sig, err := xades.Sign([]byte("<contract>signed and counter-signed</contract>"), xades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC,
		Level: xades.B, SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second), CounterSigner: srv.PKI.SignerECDSA})
	is.NoErr(err)
	res, body := post(t, s.URL, map[string][]byte{"file": sig})
	is.Equal(res.StatusCode, 200)
	var sum verdict.ValidationSummary
	is.NoErr(json.Unmarshal(body, &sum))
	is.Equal(sum.SignatureCount, 2)
	is.Equal(len(sum.Signatures), 2)
	parent, counter := sum.Signatures[0], sum.Signatures[1]
	is.Equal(parent.Indication, verdict.TotalPassed)
	is.Equal(counter.Indication, verdict.TotalPassed)
	is.True(sum.Valid)
	is.True(counter.SignatureID != parent.SignatureID)
	is.Equal(strings.Count(string(body), `"counterSignatureOf"`), 1) // left out for the parent
	is.True(strings.Contains(string(body), `"signatureId":"`+counter.SignatureID+`","counterSignatureOf":"`+parent.SignatureID+`"`))
}

// The validate command prints the same: the parts by their base names.
func TestValidateCommandDetachedParts(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, err := pki.New("http://127.0.0.1:9")
	is.NoErr(err)
	dir := t.TempDir()
	content := []byte("contract")
	sig, err := cades.Sign(content, cades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, Detached: true,
		SigningTime: pki.ReferenceTime.Add(-24 * time.Hour)})
	is.NoErr(err)
	file := write(t, dir, "contract.p7s", sig)
	contract := write(t, dir, "contract.txt", content)
	annex := write(t, dir, "annex.txt", []byte("an annex nobody signed"))
	code, out, logs := command(t, offline(t), "validate", file, "--at="+pki.ReferenceTime.Format(time.RFC3339),
		"--detached", contract, "--detached", annex)
	is.Equal(code, 0) // logs below
	if t.Failed() {
		t.Log(logs)
	}
	var sum verdict.ValidationSummary
	is.NoErr(json.Unmarshal([]byte(out), &sum))
	r := sum.Signatures[0]
	is.Equal(r.SignedData, []string{"contract.txt"})
	warned := unsignedParts(r)
	is.Equal(len(warned), 1)
	is.True(strings.Contains(warned[0], `"annex.txt"`))
}
