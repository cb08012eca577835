package seal

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/asn1"
	"encoding/base64"
	"fmt"
	"math/big"

	"github.com/go-jose/go-jose/v4"
)

// JWS returns payload signed as a compact JWS (RFC 7515) of type typ,
// with the seal's chain in x5c (RFC 7515, 4.1.6), so that a reader needs
// nothing else to verify it against the seal's anchor: ES256, ES384 or
// ES512 by the curve, RS256 for RSA. The key signs through crypto.Signer
// (go-jose's OpaqueSigner), so that a key in a token signs as one in
// memory does.
func (s *Seal) JWS(payload []byte, typ string) (string, error) {
	alg, err := jwsAlgorithm(s.key.Public())
	if err != nil {
		return "", err
	}
	x5c := make([]string, len(s.chain))
	for i, c := range s.chain {
		x5c[i] = base64.StdEncoding.EncodeToString(c.Raw) // not base64url (RFC 7515, 4.1.6)
	}
	opts := (&jose.SignerOptions{}).WithType(jose.ContentType(typ)).WithHeader("x5c", x5c)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: opaque{key: s.key, alg: alg}}, opts)
	if err != nil {
		return "", fmt.Errorf("seal: JWS: %w", err)
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		return "", fmt.Errorf("seal: JWS: %w", err)
	}
	return obj.CompactSerialize()
}

func jwsAlgorithm(pub crypto.PublicKey) (jose.SignatureAlgorithm, error) {
	switch k := pub.(type) {
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
	return "", fmt.Errorf("seal: JWS: a %T key", pub)
}

// opaque is a crypto.Signer as go-jose's OpaqueSigner for one algorithm.
type opaque struct {
	key crypto.Signer
	alg jose.SignatureAlgorithm
}

func (o opaque) Public() *jose.JSONWebKey {
	return &jose.JSONWebKey{Key: o.key.Public(), Algorithm: string(o.alg), Use: "sig"}
}

func (o opaque) Algs() []jose.SignatureAlgorithm { return []jose.SignatureAlgorithm{o.alg} }

// SignPayload hashes payload and signs the digest; an ECDSA signature
// becomes the fixed-size r||s of RFC 7518, 3.4.
func (o opaque) SignPayload(payload []byte, alg jose.SignatureAlgorithm) ([]byte, error) {
	if alg != o.alg {
		return nil, fmt.Errorf("seal: JWS: algorithm %s, the key signs %s", alg, o.alg)
	}
	h := crypto.SHA256
	switch alg {
	case jose.ES384:
		h = crypto.SHA384
	case jose.ES512:
		h = crypto.SHA512
	}
	d := h.New()
	d.Write(payload)
	sig, err := o.key.Sign(rand.Reader, d.Sum(nil), h)
	if err != nil {
		return nil, err
	}
	pub, ok := o.key.Public().(*ecdsa.PublicKey)
	if !ok {
		return sig, nil
	}
	var rs struct{ R, S *big.Int }
	if rest, err := asn1.Unmarshal(sig, &rs); err != nil || len(rest) > 0 {
		return nil, fmt.Errorf("seal: JWS: the key's ECDSA signature is not ASN.1")
	}
	size := (pub.Curve.Params().BitSize + 7) / 8
	out := make([]byte, 2*size)
	rs.R.FillBytes(out[:size])
	rs.S.FillBytes(out[size:])
	return out, nil
}
