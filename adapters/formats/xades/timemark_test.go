package xades

import (
	"crypto"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/asn1"
	"testing"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/domain/ades"
)

// digestInfo encodes a DigestInfo of digest under the algorithm oid,
// with NULL parameters when null.
func digestInfo(t *testing.T, oid asn1.ObjectIdentifier, null bool, digest []byte) []byte {
	t.Helper()
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1ObjectIdentifier(oid)
			if null {
				b.AddASN1NULL()
			}
		})
		b.AddASN1OctetString(digest)
	})
	der, err := b.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// TestCheckNonce: the nonce of a BDOC 2.1 time-mark is the DigestInfo of
// the signature value's hash, by the algorithm it names.
func TestCheckNonce(t *testing.T) {
	t.Parallel()
	value := []byte("the octets of a ds:SignatureValue")
	sum256 := sha256.Sum256(value)
	sum512 := sha512.Sum512(value)
	other := sha256.Sum256([]byte("another signature value"))
	var (
		oidSHA256 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
		oidSHA512 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}
		oidMD2    = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 2}
	)
	for _, tc := range []struct {
		name  string
		nonce []byte
		want  ades.Check
	}{
		{"SHA-256, NULL parameters", digestInfo(t, oidSHA256, true, sum256[:]), ades.Check{Done: true, Valid: true, Algorithm: hashName(crypto.SHA256)}},
		{"SHA-256, no parameters", digestInfo(t, oidSHA256, false, sum256[:]), ades.Check{Done: true, Valid: true, Algorithm: hashName(crypto.SHA256)}},
		{"SHA-512", digestInfo(t, oidSHA512, true, sum512[:]), ades.Check{Done: true, Valid: true, Algorithm: hashName(crypto.SHA512)}},
		{"the digest of another value", digestInfo(t, oidSHA256, true, other[:]), ades.Check{Done: true, Algorithm: hashName(crypto.SHA256), Reason: CodeTimeMarkNonceMismatch}},
		{"the digest under another algorithm", digestInfo(t, oidSHA512, true, sum256[:]), ades.Check{Done: true, Algorithm: hashName(crypto.SHA512), Reason: CodeTimeMarkNonceMismatch}},
		{"a bare digest", sum256[:], ades.Check{Done: true, Reason: CodeTimeMarkNonceMalformed}},
		{"trailing bytes", append(digestInfo(t, oidSHA256, true, sum256[:]), 0), ades.Check{Done: true, Reason: CodeTimeMarkNonceMalformed}},
		{"an unknown algorithm", digestInfo(t, oidMD2, true, sum256[:16]), ades.Check{Reason: CodeUnsupportedAlgorithm}},
	} {
		if got := checkNonce(tc.nonce, value); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
