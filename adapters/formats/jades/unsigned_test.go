package jades_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/jades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/cades"
	fixture "github.com/svc-dss/dss/fixtures/jades"
)

// withHeader returns the flattened serialisation data with its
// unprotected header replaced by hdr (JSON text): what is unsigned can
// change without touching the signature value.
func withHeader(t *testing.T, data []byte, hdr string) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["header"] = json.RawMessage(hdr)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// clearComponents decodes every base64url etsiU entry of data into its
// clear JSON object.
func clearComponents(t *testing.T, data []byte) []byte {
	t.Helper()
	var m struct {
		Header struct {
			EtsiU []string `json:"etsiU"`
		} `json:"header"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var clear []string
	for _, e := range m.Header.EtsiU {
		b, err := base64.RawURLEncoding.DecodeString(e)
		if err != nil {
			t.Fatal(err)
		}
		clear = append(clear, string(b))
	}
	return withHeader(t, data, `{"etsiU":[`+strings.Join(clear, ",")+`]}`)
}

// TestReadClearArcTst: an arcTst after clear-JSON components would need
// them canonicalised with canonAlg, which the reader does not do: its
// imprint is not computed (not a mismatch); the sigTst still matches.
func TestReadClearArcTst(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	data, _ := signFixture(t, fixture.Options{Level: fixture.LTA})
	s := read(t, clearComponents(t, data))[0]
	is.Equal(s.Level, ades.LevelLTA)
	is.Equal(len(s.Timestamps), 2)
	is.True(s.Timestamps[0].Imprint.Valid)
	is.Equal(s.Timestamps[1].Imprint, ades.Check{Algorithm: "SHA256", Reason: jades.CodeImprintNotComputed})
	is.Equal(len(s.Problems), 0)
}

// TestReadComponents: tstVD adds the time-stamps' validation data,
// axVals and arVals are accepted, an unreadable counter-signature and
// names of no TS 119 182-1 version are warnings, a mix of forms is a warning.
func TestReadComponents(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	data, _ := signFixture(t, fixture.Options{})
	crls, err := cades.CRLs(p, signedAt, p.TSAEU)
	if err != nil {
		t.Fatal(err)
	}
	val := func(b []byte) string { return fmt.Sprintf(`{"val":%q}`, base64.StdEncoding.EncodeToString(b)) }
	tstVD := fmt.Sprintf(`{"tstVD":{"xVals":[{"x509Cert":%s}],"rVals":{"crlVals":[%s]}}}`, val(p.TSAEU.Certificate.Raw), val(crls[0]))
	encoded := base64.RawURLEncoding.EncodeToString([]byte(`{"axVals":[]}`))
	tests := []struct {
		name     string
		etsiU    string
		certs    int // certificates besides x5c's two
		crls     int
		problems []string
	}{
		{"tstVD", "[" + tstVD + "]", 1, 1, nil},
		{"axVals and arVals", `[{"axVals":[]},{"arVals":{}}]`, 0, 0, nil},
		{"a counter-signature that is not read", `[{"cSig":{}}]`, 0, 0, []string{jades.CodeCounterSignatureUnreadable}},
		{"an unknown name", `[{"sigFoo":1}]`, 0, 0, []string{jades.CodeUnknownComponent}},
		{"both forms", fmt.Sprintf(`[{"arVals":{}},%q]`, encoded), 0, 0, []string{jades.CodeMixedComponentForms}},
		{"xVals not an array", `[{"xVals":{}}]`, 0, 0, []string{jades.CodeMalformedProperty}},
		{"rVals with a value that is no base64", `[{"rVals":{"crlVals":[{"val":"!"}]}}]`, 0, 0, []string{jades.CodeMalformedProperty}},
		{"sigTst without tokens", `[{"sigTst":{}}]`, 0, 0, []string{jades.CodeTimestampUnreadable}},
		{"sigTst of another encoding", `[{"sigTst":{"tstTokens":[{"val":"MA==","encoding":"http://uri.etsi.org/19182/BER"}]}}]`, 0, 0, []string{jades.CodeTimestampUnreadable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := read(t, withHeader(t, data, `{"etsiU":`+tt.etsiU+`}`))[0]
			is.True(s.Value.Valid) // the unsigned header is not signed
			is.Equal(len(s.Certificates), 2+tt.certs)
			is.Equal(len(s.CRLs), tt.crls)
			var codes []string
			for _, p := range s.Problems {
				is.True(!p.FormatFailure)
				codes = append(codes, p.Code)
			}
			is.Equal(codes, tt.problems)
			is.Equal(s.Level, ades.LevelB) // no sigTst that parses
		})
	}
}

// TestReadUnprotectedDuplicate: a parameter in both headers is a format
// failure (RFC 7515 4: their names must be disjoint).
func TestReadUnprotectedDuplicate(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	data, _ := signFixture(t, fixture.Options{})
	s := read(t, withHeader(t, data, `{"sigT":"2020-01-01T00:00:00Z"}`))[0]
	p, ok := problem(s, jades.CodeHeaderInvalid)
	is.True(ok && p.FormatFailure)
	is.Equal(p.Message, `header parameter "sigT" is both protected and unprotected (RFC 7515 4)`)
}

// TestReadAdoTst: a content time-stamp in the protected header covers
// the JWS Payload as signed.
func TestReadAdoTst(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	rsa := p.SignerRSA
	payload := b64url.EncodeToString(content)
	token := func(data string) string {
		d := sha256.Sum256([]byte(data))
		tok, err := cades.TimestampTokenBy(p, p.TSA, d[:], signedAt.Add(-time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		return base64.StdEncoding.EncodeToString(tok)
	}
	for _, tt := range []struct {
		name    string
		covered string
		want    ades.Check
	}{
		{"over the payload", payload, ades.Check{Done: true, Valid: true, Algorithm: "SHA256"}},
		{"over something else", payload + "x", ades.Check{Done: true, Algorithm: "SHA256", Reason: jades.CodeImprintMismatch}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			hdr := fmt.Sprintf(`{"alg":"RS256","x5c":%s,"x5t#S256":%q,"sigT":"2026-05-31T12:00:00Z","adoTst":{"tstTokens":[{"val":%q}]},"crit":["sigT","adoTst"]}`,
				x5c(rsa), x5tS256(rsa), token(tt.covered))
			s := read(t, []byte(compact(t, rsa, hdr, payload)))[0]
			is.True(s.Value.Valid)
			is.Equal(len(s.Timestamps), 1)
			is.Equal(s.Timestamps[0].Type, ades.ContentTimestamp)
			is.Equal(s.Timestamps[0].Imprint, tt.want)
			is.Equal(s.Level, ades.LevelB) // a content time-stamp is no T
		})
	}
}
