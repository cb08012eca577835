package jades_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/jades"
	"github.com/svc-dss/dss/domain/ades"
	fixture "github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/ports"
)

// Tests that mutation testing (go tool task mutate, docs/testing.md)
// found missing: each fails on the mutant named in its comment.

// TestEmptyValuesAreNotLT: LT needs xVals or rVals with content
// (TS 119 182-1 5.3.5); empty ones leave a T signature at T
// (signature.go, "> 0" of addXVals and addRVals).
func TestEmptyValuesAreNotLT(t *testing.T) {
	t.Parallel()
	data, parts := signFixture(t, fixture.Options{Level: fixture.T, ClearComponents: true})
	for _, extra := range []string{`{"xVals":[]}`, `{"rVals":{}}`, `{"xVals":[]},{"rVals":{}}`} {
		t.Run(extra, func(t *testing.T) {
			is := is.New(t)
			var m map[string]json.RawMessage
			is.NoErr(json.Unmarshal(data, &m))
			var hdr struct {
				EtsiU []json.RawMessage `json:"etsiU"`
			}
			is.NoErr(json.Unmarshal(m["header"], &hdr))
			comps := make([]string, 0, len(hdr.EtsiU))
			for _, c := range hdr.EtsiU {
				comps = append(comps, string(c))
			}
			sigs := read(t, withHeader(t, data, `{"etsiU":[`+strings.Join(comps, ",")+`,`+extra+`]}`), parts...)
			is.Equal(len(sigs), 1)
			is.Equal(sigs[0].Level, ades.LevelT)
		})
	}
	// The same signature with its values is LT.
	data, parts = signFixture(t, fixture.Options{Level: fixture.LT, ClearComponents: true})
	is.New(t).Equal(read(t, data, parts...)[0].Level, ades.LevelLT)
}

// TestSigX5tsMustBeANonEmptyArray: sigX5ts (TS 119 182-1 5.2.2.3) that
// is no array, or an empty one, is a header problem that fails the
// format (header.go, both halves of the condition negated).
func TestSigX5tsMustBeANonEmptyArray(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	payload := b64url.EncodeToString(content)
	for _, v := range []string{`[]`, `{}`, `"x"`} {
		t.Run(v, func(t *testing.T) {
			is := is.New(t)
			sigs := read(t, []byte(compact(t, p.SignerRSA, header(p.SignerRSA, "RS256", `"sigX5ts":`+v), payload)))
			is.Equal(len(sigs), 1)
			pr, ok := problem(sigs[0], jades.CodeHeaderInvalid)
			is.True(ok)
			is.Equal(pr.Message, "sigX5ts is not a non-empty array")
			is.True(pr.FormatFailure)
		})
	}
	// A non-empty array of digests is no problem.
	is := is.New(t)
	sigs := read(t, []byte(compact(t, p.SignerRSA, header(p.SignerRSA, "RS256", `"sigX5ts":[{"digAlg":"S256","digVal":"`+x5tS256(p.SignerRSA)+`"}]`), payload)))
	_, ok := problem(sigs[0], jades.CodeHeaderInvalid)
	is.True(!ok)
}

// TestAttachedPayloadOfImpossibleLength: an attached base64url payload
// whose length leaves one character over (length % 4 == 1) encodes no
// octets (RFC 4648 section 5) and is refused, though every character is
// of the alphabet (signature.go, "%" of the length).
func TestAttachedPayloadOfImpossibleLength(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := testPKI(t)
	for _, payload := range []string{"abcde", "A", "abcdefghi"} {
		data := compact(t, p.SignerRSA, header(p.SignerRSA, "RS256", ""), payload)
		_, err := jades.NewReader().Read(context.Background(), ports.Document{Name: "t.json", Data: []byte(data)})
		is.True(errors.Is(err, ports.ErrUnreadable))
		is.Equal(err.Error(), "unreadable document: jades: t.json: payload: invalid base64url (RFC 7515 section 2, no padding)")
	}
	data := compact(t, p.SignerRSA, header(p.SignerRSA, "RS256", ""), "abcdef") // 6 % 4 == 2: four octets
	_, err := jades.NewReader().Read(context.Background(), ports.Document{Name: "t.json", Data: []byte(data)})
	is.NoErr(err)
}

// etsiUOf returns the clear etsiU components of data (a fixture signed
// with ClearComponents), each as its one property's name and value.
func etsiUOf(t *testing.T, data []byte) []map[string]json.RawMessage {
	t.Helper()
	var m struct {
		Header struct {
			EtsiU []map[string]json.RawMessage `json:"etsiU"`
		} `json:"header"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m.Header.EtsiU
}

// withEtsiU is data with comps as its unsigned header's etsiU.
func withEtsiU(t *testing.T, data []byte, comps []map[string]json.RawMessage) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"etsiU": comps})
	if err != nil {
		t.Fatal(err)
	}
	return withHeader(t, data, string(b))
}

// TestRValsAloneAreLT: rVals with content make a T signature LT without
// xVals, as xVals do without rVals (TS 119 182-1 5.3.5; unsigned.go, the
// count of the values read).
func TestRValsAloneAreLT(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	data, parts := signFixture(t, fixture.Options{Level: fixture.LT, ClearComponents: true})
	var kept []map[string]json.RawMessage
	for _, c := range etsiUOf(t, data) {
		if _, ok := c["xVals"]; !ok {
			kept = append(kept, c)
		}
	}
	sigs := read(t, withEtsiU(t, data, kept), parts...)
	is.Equal(sigs[0].Level, ades.LevelLT)

	// rVals of OCSP responses alone, no CRL.
	for i, c := range kept {
		if raw, ok := c["rVals"]; ok {
			var r map[string]json.RawMessage
			is.NoErr(json.Unmarshal(raw, &r))
			is.True(r["ocspVals"] != nil) // the fixture's signer is under the intermediate, which has an OCSP responder
			delete(r, "crlVals")
			b, err := json.Marshal(r)
			is.NoErr(err)
			kept[i] = map[string]json.RawMessage{"rVals": b}
		}
	}
	sigs = read(t, withEtsiU(t, data, kept), parts...)
	is.Equal(sigs[0].Level, ades.LevelLT)
}

// TestTimestampTokenEncoding: a tstTokens entry may name its encoding;
// DER (TS 119 182-1 5.3.4, http://uri.etsi.org/19182/DER) is read like
// one that names none, any other is not read (unsigned.go, the
// comparison with the DER URI negated).
func TestTimestampTokenEncoding(t *testing.T) {
	t.Parallel()
	data, parts := signFixture(t, fixture.Options{Level: fixture.T, ClearComponents: true})
	for _, c := range []struct {
		encoding string
		read     bool
	}{{"http://uri.etsi.org/19182/DER", true}, {"http://uri.etsi.org/19182/XML", false}} {
		t.Run(c.encoding, func(t *testing.T) {
			is := is.New(t)
			comps := etsiUOf(t, data)
			var tst struct {
				TstTokens []map[string]any `json:"tstTokens"`
			}
			is.NoErr(json.Unmarshal(comps[0]["sigTst"], &tst))
			is.Equal(len(tst.TstTokens), 1)
			tst.TstTokens[0]["encoding"] = c.encoding
			b, err := json.Marshal(tst)
			is.NoErr(err)
			comps[0]["sigTst"] = b
			sigs := read(t, withEtsiU(t, data, comps), parts...)
			is.Equal(len(sigs[0].Timestamps) == 1, c.read)
			_, refused := problem(sigs[0], jades.CodeTimestampUnreadable)
			is.Equal(refused, !c.read)
		})
	}
}
