package hsm

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"fmt"
	"io"
	"math/big"
	"slices"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/ports"
)

// Signer returns key of partition p as a crypto.Signer, for the
// service's own report seal (docs/decisions/0037): a key the operator
// configures and no request names. Its signatures need no Smart Key
// Attributes approval, which authorises a tenant's request to use a
// tenant's key; the seal signs only what the service itself issues. The
// signing runs on the partition's pool like Sign's, with the same checks
// of the operation (SHA-256, -384 or -512; PKCS #1 v1.5, PSS with the
// salt as long as the hash, or ECDSA by the key), and ECDSA signatures
// are returned in ASN.1, as crypto.Signer wants.
func (h *HSM) Signer(ctx context.Context, p ports.Partition, key ports.KeyRef) (crypto.Signer, error) {
	pub, err := h.PublicKey(ctx, p, key)
	if err != nil {
		return nil, err
	}
	return &keySigner{h: h, p: p, key: key, pub: pub}, nil
}

type keySigner struct {
	h   *HSM
	p   ports.Partition
	key ports.KeyRef
	pub crypto.PublicKey
}

func (k *keySigner) Public() crypto.PublicKey { return k.pub }

// Sign signs digest, the hash opts.HashFunc() of the message, within the
// HSM's timeout.
func (k *keySigner) Sign(_ io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	op := ports.SignOperation{Key: k.key, Hash: opts.HashFunc(), Data: [][]byte{digest}}
	switch k.pub.(type) {
	case *rsa.PublicKey:
		op.Mechanism = ports.MechanismRSAPKCS1
		if pss, ok := opts.(*rsa.PSSOptions); ok {
			if pss.SaltLength != rsa.PSSSaltLengthEqualsHash && pss.SaltLength != opts.HashFunc().Size() {
				return nil, fmt.Errorf("%w: PSS with a salt of %d bytes: only a salt as long as the hash", ErrInvalidOperation, pss.SaltLength)
			}
			op.Mechanism = ports.MechanismRSAPSS
		} else {
			op.Data[0] = slices.Concat(digestInfoPrefixes[op.Hash], digest)
		}
	case *ecdsa.PublicKey:
		op.Mechanism = ports.MechanismECDSA
	default:
		return nil, fmt.Errorf("%w: a %T key", ErrInvalidOperation, k.pub)
	}
	want, err := planFor(op)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), k.h.o.Timeout)
	defer cancel()
	sig, err := do(ctx, k.h, k.p, "sign", func(pl *pool, s *session) ([]byte, error) {
		return k.h.signOne(pl, s, op, want, op.Data[0])
	})
	if err != nil || op.Mechanism != ports.MechanismECDSA {
		return sig, err
	}
	return ecdsaASN1(sig)
}

// ecdsaASN1 turns the token's r||s into the ECDSA-Sig-Value of RFC 3279.
func ecdsaASN1(rs []byte) ([]byte, error) {
	if len(rs) == 0 || len(rs)%2 != 0 {
		return nil, fmt.Errorf("%w: an ECDSA signature of %d bytes", ports.ErrHSMUnavailable, len(rs))
	}
	n := len(rs) / 2
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1BigInt(new(big.Int).SetBytes(rs[:n]))
		b.AddASN1BigInt(new(big.Int).SetBytes(rs[n:]))
	})
	return b.Bytes()
}
