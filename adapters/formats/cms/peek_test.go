package cms_test

import (
	"encoding/asn1"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/fixtures/cmswrite"
)

// EncapsulatedContentType tells a signature (id-data) from a time-stamp
// token (id-ct-TSTInfo) by the headers in front of the eContentType, DER
// or BER, and says nothing of what does not start like a SignedData.
func TestEncapsulatedContentType(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	signed := mustSign(t, []byte("content"), []cmswrite.Signer{signerFor(p.SignerRSA)}, cmswrite.SignOptions{})
	token := mustSign(t, []byte{0x30, 0x00}, []cmswrite.Signer{signerFor(p.TSA)}, cmswrite.SignOptions{ContentType: cms.OIDTSTInfo})
	// A BER header for every constructed wrapper: what some signers write.
	ber := []byte{0x30, 0x80, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02, 0xa0, 0x80, 0x30, 0x80,
		0x02, 0x01, 0x03, 0x31, 0x00, 0x30, 0x80, 0x06, 0x0b, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x10, 0x01, 0x04}
	tests := []struct {
		name string
		data []byte
		want asn1.ObjectIdentifier // nil: not ok
	}{
		{"a signature", signed, cms.OIDData},
		{"a time-stamp token", token, cms.OIDTSTInfo},
		{"BER headers", ber, cms.OIDTSTInfo},
		{"cut before the eContentType", ber[:30], nil},
		{"another content type", []byte{0x30, 0x0b, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01}, nil},
		{"a SEQUENCE of something else", []byte{0x30, 0x03, 0x02, 0x01, 0x01}, nil},
		{"a length of more than four bytes", []byte{0x30, 0x85, 0, 0, 0, 0, 1}, nil},
		{"nothing", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			got, ok := cms.EncapsulatedContentType(tt.data)
			is.Equal(ok, tt.want != nil)
			if tt.want != nil {
				is.True(got.Equal(tt.want))
			}
		})
	}
}
