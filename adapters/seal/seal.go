package seal

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"errors"
	"fmt"
	"time"
)

// A Timestamper returns an RFC 3161 TimeStampToken over digest, the hash
// h of the data (egress.TSA).
type Timestamper interface {
	Timestamp(ctx context.Context, h crypto.Hash, digest []byte) ([]byte, error)
}

// A Seal signs with the validator's seal key. It is safe for concurrent
// use.
type Seal struct {
	key   crypto.Signer
	chain []*x509.Certificate
	tsa   Timestamper
	now   func() time.Time
	field string // the signature field's name (/T)
	pss   bool   // RSASSA-PSS instead of PKCS #1 v1.5
}

// An Option changes a Seal from its defaults.
type Option func(*Seal)

// WithFieldName names the PDF signature field (/T) field instead of
// "Validator seal": a signer other than the validator's seal names its
// own.
func WithFieldName(field string) Option { return func(s *Seal) { s.field = field } }

// WithPSS signs with RSASSA-PSS (an RSA key only) instead of PKCS #1 v1.5.
func WithPSS() Option { return func(s *Seal) { s.pss = true } }

// New returns the seal of key, whose certificate is chain[0] (its
// issuers follow, to embed). tsa, when not nil, time-stamps every
// signature (PAdES level T). now is the clock of the signing time.
func New(key crypto.Signer, chain []*x509.Certificate, tsa Timestamper, now func() time.Time, opts ...Option) (*Seal, error) {
	if key == nil || len(chain) == 0 {
		return nil, errors.New("seal: a key and its certificate are required")
	}
	c := chain[0]
	pub, ok := key.Public().(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !pub.Equal(c.PublicKey) {
		return nil, fmt.Errorf("seal: the key does not belong to the certificate %q", c.Subject.String())
	}
	switch key.Public().(type) {
	case *rsa.PublicKey, *ecdsa.PublicKey:
	default:
		return nil, fmt.Errorf("seal: a %T key: only RSA and ECDSA keys seal", key.Public())
	}
	if c.KeyUsage != 0 && c.KeyUsage&(x509.KeyUsageDigitalSignature|x509.KeyUsageContentCommitment) == 0 {
		return nil, fmt.Errorf("seal: the certificate %q does not allow signatures (key usage has neither digitalSignature nor nonRepudiation)", c.Subject.String())
	}
	s := &Seal{key: key, chain: chain, tsa: tsa, now: now, field: fieldName}
	for _, o := range opts {
		o(s)
	}
	if _, rsaKey := key.Public().(*rsa.PublicKey); s.pss && !rsaKey {
		return nil, errors.New("seal: RSASSA-PSS needs an RSA key")
	}
	return s, nil
}

// Certificate is the seal certificate.
func (s *Seal) Certificate() *x509.Certificate { return s.chain[0] }

// Chain is the seal certificate and its issuers, as configured.
func (s *Seal) Chain() []*x509.Certificate { return s.chain }

// Subject names the seal as a reader knows it: the certificate's subject.
func (s *Seal) Subject() string { return s.chain[0].Subject.String() }

// TimeStamped reports whether the seal's PDF signatures are time-stamped
// (PAdES level T).
func (s *Seal) TimeStamped() bool { return s.tsa != nil }
