package tsp

import (
	"bytes"
	"testing"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// FuzzTSTInfo feeds arbitrary bytes to ParseTSTInfo and, wrapped in an
// OCTET STRING, to Parse. Neither may panic, and a TSTInfo that parses
// keeps its input and has the fields RFC 3161 requires.
func FuzzTSTInfo(f *testing.F) {
	f.Add(validTSTInfo.der(f))
	minimal := validTSTInfo
	minimal.accuracy, minimal.ordering, minimal.nonce, minimal.tsa, minimal.ext = nil, false, nil, false, false
	f.Add(minimal.der(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := ParseTSTInfo(data)
		if err == nil {
			if !bytes.Equal(info.Raw, data) || info.Version != 1 || info.Policy == nil ||
				info.SerialNumber == nil || info.GenTime.IsZero() {
				t.Fatalf("incomplete TSTInfo: %+v", info)
			}
			_, _ = info.TSADirectoryName()
			_ = info.Accuracy.Duration()
		}
		var b cryptobyte.Builder
		b.AddASN1(cbasn1.OCTET_STRING, func(b *cryptobyte.Builder) { b.AddBytes(data) })
		if wrapped, err := b.Bytes(); err == nil {
			_, _ = Parse(wrapped)
		}
		_, _, _ = ParseResponse(data)
	})
}
