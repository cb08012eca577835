package jades

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"testing"
)

// TestEncodeB64URL: the fast encoder gives encoding/base64's output for
// every length and every byte value.
func TestEncodeB64URL(t *testing.T) {
	t.Parallel()
	for n := range 300 {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i*151 + n*7)
		}
		dst := make([]byte, base64.RawURLEncoding.EncodedLen(n)+8)
		got := string(dst[:encodeB64URL(dst, src)])
		if want := base64.RawURLEncoding.EncodeToString(src); got != want {
			t.Fatalf("%d bytes: %q, want %q", n, got, want)
		}
	}
}

// TestWriteEncoded: the chunked writer gives the whole encoding, in
// order, for inputs around the chunk boundaries.
func TestWriteEncoded(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, encodeChunk, 4 * encodeChunk, 4*encodeChunk + 1, 9*encodeChunk + 2, 3 << 20} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i ^ i>>8 ^ i>>16)
		}
		h := sha256.New()
		writeEncoded(h, src)
		want := sha256.Sum256([]byte(base64.RawURLEncoding.EncodeToString(src)))
		if !bytes.Equal(h.Sum(nil), want[:]) {
			t.Errorf("%d bytes: the digest of the encoding differs", n)
		}
	}
}
