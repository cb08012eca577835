package seal

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"fmt"

	"github.com/go-jose/go-jose/v4"
)

// JWS returns payload signed as a compact JWS (RFC 7515) of type typ,
// with the seal's chain in x5c (RFC 7515, 4.1.6), so that a reader needs
// nothing else to verify it against the seal's anchor: ES256, ES384 or
// ES512 by the curve, RS256 for RSA.
func (s *Seal) JWS(payload []byte, typ string) (string, error) {
	alg, err := jwsAlgorithm(s)
	if err != nil {
		return "", err
	}
	x5c := make([]string, len(s.chain))
	for i, c := range s.chain {
		x5c[i] = encodeStd(c.Raw)
	}
	opts := (&jose.SignerOptions{}).WithType(jose.ContentType(typ)).WithHeader("x5c", x5c)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: s.key}, opts)
	if err != nil {
		return "", fmt.Errorf("seal: JWS: %w", err)
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		return "", fmt.Errorf("seal: JWS: %w", err)
	}
	return obj.CompactSerialize()
}

func jwsAlgorithm(s *Seal) (jose.SignatureAlgorithm, error) {
	switch k := s.key.Public().(type) {
	case *rsa.PublicKey:
		return jose.RS256, nil
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return jose.ES256, nil
		case elliptic.P384():
			return jose.ES384, nil
		case elliptic.P521():
			return jose.ES512, nil
		}
		return "", fmt.Errorf("seal: JWS: the curve %s has no JWS algorithm", k.Curve.Params().Name)
	}
	return "", fmt.Errorf("seal: JWS: a %T key", s.key.Public())
}

// encodeStd is standard base64 with padding, as x5c wants (RFC 7515,
// 4.1.6: not base64url).
func encodeStd(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
