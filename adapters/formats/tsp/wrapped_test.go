package tsp

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cms"
)

// Parse unwraps an OCTET STRING only around a SEQUENCE: an empty one, or
// one around anything else, is read as the token itself and refused as
// malformed, without reading past its end (mutation testing,
// docs/testing.md, found the empty OCTET STRING unchecked).
func TestParseWrappedNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		token []byte
	}{
		{"an empty OCTET STRING", []byte{0x04, 0x00}},
		{"an OCTET STRING around an INTEGER", []byte{0x04, 0x03, 0x02, 0x01, 0x01}},
		{"an OCTET STRING around an empty SEQUENCE", []byte{0x04, 0x02, 0x30, 0x00}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			tok, err := Parse(tt.token)
			is.Equal(tok, nil)
			is.True(errors.Is(err, cms.ErrMalformed)) // cms.Parse's refusal
		})
	}
}
