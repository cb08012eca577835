package ocsp

import (
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// Wrap returns the successful OCSPResponse (RFC 6960, 4.2.1) of type
// id-pkix-ocsp-basic carrying basic, a BasicOCSPResponse: what CAdES and
// XAdES revocation values and PAdES DSS dictionaries embed, where
// RevocationSource and the reports want a whole response.
func Wrap(basic []byte) ([]byte, error) {
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1Enum(int64(Successful))
		b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(oidBasicResponse)
				b.AddASN1OctetString(basic)
			})
		})
	})
	return b.Bytes()
}

// Full returns data as an OCSPResponse: unchanged when it is one (or
// neither), wrapped (Wrap) when it is a bare BasicOCSPResponse, which
// some writers embed where a whole response belongs. An OCSPResponse
// starts with its ENUMERATED status, a BasicOCSPResponse with the
// SEQUENCE tbsResponseData.
func Full(data []byte) []byte {
	in := cryptobyte.String(data)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.PeekASN1Tag(cbasn1.SEQUENCE) {
		return data
	}
	full, err := Wrap(data)
	if err != nil {
		return data
	}
	return full
}
