package ocsp_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/ocsp"
)

// paddedResponse is a successful OCSPResponse of exactly size bytes whose
// responseBytes are of an unknown type (1.2.3.4), the response an OCTET
// STRING of zeros: it parses up to the type, which ParseResponse refuses
// as ErrUnsupported.
func paddedResponse(t *testing.T, size int) []byte {
	t.Helper()
	for pad := size - 32; pad <= size; pad++ {
		var b cryptobyte.Builder
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1Enum(0) // successful
			b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					b.AddASN1ObjectIdentifier([]int{1, 2, 3, 4})
					b.AddASN1OctetString(make([]byte, pad))
				})
			})
		})
		if der := b.BytesOrPanic(); len(der) == size {
			return der
		}
	}
	t.Fatalf("no padding gives %d bytes", size)
	return nil
}

// ParseResponse reads a response of exactly MaxResponseBytes and refuses
// one byte more, before reading it (mutation testing, docs/testing.md,
// found the edge unchecked).
func TestParseResponseLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		size   int
		err    error
		reason string
	}{
		{"exactly the limit", ocsp.MaxResponseBytes, ocsp.ErrUnsupported, ""},
		{"one byte over", ocsp.MaxResponseBytes + 1, ocsp.ErrMalformed, "65537 bytes, limit 65536"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			_, err := ocsp.ParseResponse(paddedResponse(t, tt.size))
			is.True(errors.Is(err, tt.err))                   // the class
			is.True(strings.Contains(err.Error(), tt.reason)) // the reason
			if tt.err != ocsp.ErrMalformed {
				is.True(!errors.Is(err, ocsp.ErrMalformed)) // read, not refused for its size
			}
		})
	}
}
