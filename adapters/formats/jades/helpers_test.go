package jades_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/jades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/ports"
)

var (
	pkiOnce sync.Once
	thePKI  *pki.PKI
	pkiErr  error
)

// testPKI is the fixture PKI, made once: Sign asks its services in
// process, so the URL is never reached.
func testPKI(t testing.TB) *pki.PKI {
	t.Helper()
	pkiOnce.Do(func() { thePKI, pkiErr = pki.New("http://127.0.0.1:9") })
	if pkiErr != nil {
		t.Fatal(pkiErr)
	}
	return thePKI
}

// signedAt is the signing time of the fixtures.
var signedAt = pki.ReferenceTime.Add(-12 * time.Hour)

// read reads data with the detached parts, failing t on an error.
func read(t testing.TB, data []byte, detached ...ports.Detached) []ades.Signature {
	t.Helper()
	sigs, err := jades.NewReader().Read(context.Background(), ports.Document{Name: "t.json", Data: data, Detached: detached})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return sigs
}

var b64url = base64.RawURLEncoding

// x5c is the JSON array of the certificates of id's chain but the root.
func x5c(id *pki.Identity) string {
	chain := id.Chain()
	var parts []string
	for _, c := range chain[:len(chain)-1] {
		parts = append(parts, `"`+base64.StdEncoding.EncodeToString(c.Raw)+`"`)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// x5tS256 is the base64url SHA-256 of id's certificate.
func x5tS256(id *pki.Identity) string {
	s := sha256.Sum256(id.Certificate.Raw)
	return b64url.EncodeToString(s[:])
}

// compact signs payload (a base64url string, or the octets under b64
// false) under the protected header hdr (JSON text) with id's key, RS256
// or ES256 as the key is, and returns the compact serialisation with
// the payload left in it.
func compact(t testing.TB, id *pki.Identity, hdr, payload string) string {
	t.Helper()
	protected := b64url.EncodeToString([]byte(hdr))
	return protected + "." + payload + "." + b64url.EncodeToString(rawSign(t, id, protected+"."+payload))
}

// rawSign is an RS256 or ES256 signature of input by id.
func rawSign(t testing.TB, id *pki.Identity, input string) []byte {
	t.Helper()
	d := sha256.Sum256([]byte(input))
	v, err := id.Key.Sign(rand.Reader, d[:], crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	k, ok := id.Key.Public().(*ecdsa.PublicKey)
	if !ok {
		return v
	}
	var r, s big.Int
	in := cryptobyte.String(v)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.ReadASN1Integer(&r) || !seq.ReadASN1Integer(&s) {
		t.Fatal("not an Ecdsa-Sig-Value")
	}
	size := (k.Curve.Params().N.BitLen() + 7) / 8
	out := make([]byte, 2*size)
	r.FillBytes(out[:size])
	s.FillBytes(out[size:])
	return out
}

// header is a protected header of a B-level signature by id with alg and
// the extra members (JSON text without braces, "" for none).
func header(id *pki.Identity, alg, extra string) string {
	h := fmt.Sprintf(`{"alg":%q,"x5t#S256":%q,"x5c":%s,"sigT":"2026-05-31T12:00:00Z","crit":["sigT"]`, alg, x5tS256(id), x5c(id))
	if extra != "" {
		h += "," + extra
	}
	return h + "}"
}

// problem returns the problem of code among sig's, and whether there is one.
func problem(sig ades.Signature, code string) (ades.Problem, bool) {
	for _, p := range sig.Problems {
		if p.Code == code {
			return p, true
		}
	}
	return ades.Problem{}, false
}

// issuerSerialOf is the DER IssuerSerial (RFC 5035) of id's certificate,
// as a kid carries it.
func issuerSerialOf(t testing.TB, id *pki.Identity) []byte {
	t.Helper()
	c := id.Certificate
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.Tag(4).Constructed().ContextSpecific(), func(b *cryptobyte.Builder) {
				b.AddBytes(c.RawIssuer)
			})
		})
		b.AddASN1BigInt(c.SerialNumber)
	})
	der, err := b.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return der
}
