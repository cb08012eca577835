package cert

import (
	"crypto"
	"encoding/asn1"
	"errors"
	"testing"

	"github.com/matryer/is"
)

// A digest algorithm we lack is unsupported; a signature algorithm where a
// digest algorithm belongs is a broken signature.
func TestHashFromOID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		oid  asn1.ObjectIdentifier
		hash crypto.Hash
		err  error
	}{
		{"SHA-256", asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}, crypto.SHA256, nil},
		{"SHAKE256, not implemented", asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 12}, 0, ErrUnsupported},
		{"sha256WithRSAEncryption in the digest field", asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}, 0, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			h, err := HashFromOID(tt.oid)
			is.Equal(h, tt.hash)
			is.True(errors.Is(err, tt.err))
		})
	}
}
