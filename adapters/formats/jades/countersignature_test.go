package jades_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/jades"
	"github.com/svc-dss/dss/domain/ades"
	fixture "github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/ports"
)

// alterSignature flips one character of the signature value of the
// flattened JWS data (its top-level "signature", after its header and
// the counter-signatures there).
func alterSignature(t *testing.T, data []byte) []byte {
	t.Helper()
	key := []byte(`"signature":"`)
	at := bytes.LastIndex(data, key)
	if at < 0 {
		t.Fatal("no signature member")
	}
	out := bytes.Clone(data)
	i := at + len(key) + 10
	if out[i] == 'A' {
		out[i] = 'B'
	} else {
		out[i] = 'A'
	}
	return out
}

// TestReadCounterSignature: each cSig, flattened or compact, in either
// etsiU form, is a signature of its own (TS 119 182-1 5.3.2) whose only
// data object is its parent's signature value, and it names its parent;
// a parent whose value is altered fails, and its counter-signature,
// over the value as signed, no longer verifies.
func TestReadCounterSignature(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	tests := []struct {
		name string
		o    fixture.Options
	}{
		{"flattened", fixture.Options{CounterSigner: p.SignerECDSA}},
		{"compact", fixture.Options{CounterSigner: p.SignerECDSA, CounterSerialization: fixture.Compact}},
		{"clear components", fixture.Options{CounterSigner: p.SignerECDSA, ClearComponents: true}},
		{"general serialisation, level T", fixture.Options{CounterSigner: p.SignerECDSA, Serialization: fixture.General, Level: fixture.T}},
		{"LTA, the arcTst over the cSig", fixture.Options{CounterSigner: p.SignerECDSA, CounterSerialization: fixture.Compact, Level: fixture.LTA}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			data, _ := signFixture(t, tt.o)
			sigs := read(t, data)
			is.Equal(len(sigs), 1)
			parent := sigs[0]
			is.True(parent.Value.Valid)
			is.Equal(len(parent.Problems), 0)
			for _, ts := range parent.Timestamps {
				is.True(ts.Imprint.Valid) // the arcTst covers the cSig as it appears
			}
			is.Equal(len(parent.CounterSignatures), 1)
			cs := parent.CounterSignatures[0]
			is.Equal(cs.CounterSignatureOf, parent.ID)
			is.True(cs.ID != parent.ID)
			is.True(cs.Value.Valid)
			is.True(cs.SigningCertificate.Equal(p.SignerECDSA.Certificate))
			is.Equal(cs.Level, ades.LevelB)
			is.Equal(cs.DataObjects, []ades.DataObject{{Name: "signature-value", Found: true, Intact: true, DigestAlgorithm: "SHA256"}})
			is.Equal(len(cs.Problems), 0)

			if tt.o.Serialization == fixture.General {
				return
			}
			broken := read(t, alterSignature(t, data))[0]
			is.True(broken.Value.Done && !broken.Value.Valid)
			is.Equal(len(broken.CounterSignatures), 1)
			c := broken.CounterSignatures[0]
			is.Equal(c.Value, ades.Check{Done: true, Algorithm: "ECDSA-SHA256", Reason: jades.CodeSignatureInvalid})
		})
	}
}

// TestReadCounterSignatureAttached: a counter-signature whose payload is
// attached must carry its parent's signature value: another value is a
// data object that is not intact, though its own signature verifies.
func TestReadCounterSignatureAttached(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	data, _ := signFixture(t, fixture.Options{})
	var m struct {
		Signature string `json:"signature"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	hdr := header(p.SignerECDSA, "ES256", "")
	tests := []struct {
		name    string
		payload string
		intact  bool
	}{
		{"the parent's value", m.Signature, true},
		{"another value", b64url.EncodeToString([]byte("another signature value")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			cSig := compact(t, p.SignerECDSA, hdr, tt.payload)
			sigs := read(t, withHeader(t, data, fmt.Sprintf(`{"etsiU":[{"cSig":%q}]}`, cSig)))
			is.Equal(len(sigs[0].CounterSignatures), 1)
			cs := sigs[0].CounterSignatures[0]
			is.True(cs.Value.Valid)
			is.Equal(len(cs.DataObjects), 1)
			is.Equal(cs.DataObjects[0].Name, "signature-value")
			is.True(cs.DataObjects[0].Found)
			is.Equal(cs.DataObjects[0].Intact, tt.intact)
		})
	}
}

// TestReadCounterSignatureMalformed: a cSig that is not a JWS of the
// compact or flattened serialisation is a problem of its parent and is
// left out; the parent is read as it is.
func TestReadCounterSignatureMalformed(t *testing.T) {
	t.Parallel()
	data, _ := signFixture(t, fixture.Options{})
	prot := b64url.EncodeToString([]byte(`{"alg":"ES256"}`))
	tests := []struct {
		name, cSig string
	}{
		{"a number", `1`},
		{"an empty object", `{}`},
		{"a string that is no JWS", `"not a JWS"`},
		{"a general serialisation", fmt.Sprintf(`{"signatures":[{"protected":%q,"signature":"AAAA"}]}`, prot)},
		{"a protected header that is no base64url", `{"protected":"!!","signature":"AAAA"}`},
		{"a protected header that is no object", fmt.Sprintf(`{"protected":%q,"signature":"AAAA"}`, b64url.EncodeToString([]byte(`[1]`)))},
		{"a header that is no object", fmt.Sprintf(`{"protected":%q,"header":1,"signature":"AAAA"}`, prot)},
		{"a payload that is no string", fmt.Sprintf(`{"protected":%q,"payload":1,"signature":"AAAA"}`, prot)},
		{"a malformed etsiU of its own", fmt.Sprintf(`{"protected":%q,"header":{"etsiU":1},"signature":"AAAA"}`, prot)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			sigs := read(t, withHeader(t, data, `{"etsiU":[{"cSig":`+tt.cSig+`}]}`))
			is.Equal(len(sigs), 1)
			is.True(sigs[0].Value.Valid)
			is.Equal(len(sigs[0].CounterSignatures), 0)
			is.Equal(len(sigs[0].Problems), 1)
			pr := sigs[0].Problems[0]
			is.Equal(pr.Code, jades.CodeCounterSignatureUnreadable)
			is.True(!pr.FormatFailure)
			is.True(strings.HasPrefix(pr.Message, "etsiU[0] cSig is not read: "))
		})
	}
}

// TestReadCounterSignatureLimits: counter-signatures nested deeper than
// MaxCounterSignatureDepth, or more signatures than MaxSignatures
// counting them, make the document unreadable; at the bounds it is read.
func TestReadCounterSignatureLimits(t *testing.T) {
	t.Parallel()
	data, _ := signFixture(t, fixture.Options{})
	prot := b64url.EncodeToString([]byte(`{"alg":"ES256"}`))
	// nested is a cSig holding depth-1 more, each in a base64url-encoded
	// component, so that JSON nesting does not bound them.
	var nested func(depth int) string
	nested = func(depth int) string {
		hdr := ""
		if depth > 1 {
			comp := b64url.EncodeToString([]byte(`{"cSig":` + nested(depth-1) + `}`))
			hdr = fmt.Sprintf(`,"header":{"etsiU":[%q]}`, comp)
		}
		return fmt.Sprintf(`{"protected":%q%s,"signature":%q}`, prot, hdr, b64url.EncodeToString([]byte{byte(depth)}))
	}
	many := func(n int) string {
		var comps []string
		for i := range n {
			comps = append(comps, fmt.Sprintf(`{"cSig":{"protected":%q,"signature":%q}}`, prot, b64url.EncodeToString([]byte{byte(i), byte(i >> 8)})))
		}
		return strings.Join(comps, ",")
	}
	depthOf := func(s ades.Signature) int {
		d := 0
		for len(s.CounterSignatures) > 0 {
			s, d = s.CounterSignatures[0], d+1
		}
		return d
	}
	tests := []struct {
		name         string
		etsiU        string
		depth, count int // of the document read; 0 when unreadable
	}{
		{"nested to the bound", `{"cSig":` + nested(jades.MaxCounterSignatureDepth) + `}`, jades.MaxCounterSignatureDepth, 1},
		{"nested deeper", `{"cSig":` + nested(jades.MaxCounterSignatureDepth+1) + `}`, 0, 0},
		{"as many as the bound", many(jades.MaxSignatures - 1), 1, jades.MaxSignatures - 1},
		{"more", many(jades.MaxSignatures), 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			doc := ports.Document{Name: "t.json", Data: withHeader(t, data, `{"etsiU":[`+tt.etsiU+`]}`)}
			sigs, err := jades.NewReader().Read(context.Background(), doc)
			if tt.depth == 0 {
				is.True(errors.Is(err, ports.ErrUnreadable))
				return
			}
			is.NoErr(err)
			is.Equal(depthOf(sigs[0]), tt.depth)
			is.Equal(len(sigs[0].CounterSignatures), tt.count)
		})
	}
}
