// Package signclient is the client side of the signing server's
// POST /api/server-signing/sign-ska (docs/signing-api.yaml): what the
// on-premises signing proxy does. It hashes nothing and sends no
// document: a [Key] is a crypto.Signer whose Sign sends the digest it is
// given, with the proxy's self-issued JWT over the exact request body,
// and returns the server's signature only after checking it against the
// certificate's public key. Package adapters/seal and adapters/cmssign
// build the PAdES and CAdES signatures around it, as they do around a
// key in memory or in a local token (docs/decisions/0043).
package signclient

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/svc-dss/dss/adapters/signjwt"
)

// SignPath is the signing server's one signing path.
const SignPath = "/api/server-signing/sign-ska"

// The signature algorithms of a sign request.
const (
	RSAPKCS1v15 = "RSA_PKCS1_V1_5"
	RSAPSS      = "RSA_PSS"
	ECDSA       = "ECDSA"
)

// tokenLifetime is how long the proxy's tokens live: well within the
// server's 5 minutes, and long enough for a slow link.
const tokenLifetime = 2 * time.Minute

// maxAnswer bounds the server's answer: 16 signatures in JSON are a few
// KiB.
const maxAnswer = 1 << 20

// A Client is one proxy identity at one signing server: the tenant, the
// module the proxy is, and its registered client key.
type Client struct {
	// URL is the server's base URL, without the path.
	URL            string
	Tenant, Module string
	// KID names ClientKey's registration; ClientKey signs the tokens
	// (ES256, ES384 or ES512 by its curve; RS256 for an RSA key).
	KID       string
	ClientKey crypto.Signer
	HTTP      *http.Client
	// Now is the clock of the tokens' iat and exp; time.Now when nil.
	Now func() time.Time
}

// A RefusalError is a sign request the server did not sign: its status
// and problem details (RFC 9457).
type RefusalError struct {
	Status  int
	Problem Problem
}

// Problem is the problem details of a refusal.
type Problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	RequestID string `json:"requestId"`
}

func (e *RefusalError) Error() string {
	return fmt.Sprintf("the signing server refused (%d %s): %s: %s (request %s)",
		e.Status, http.StatusText(e.Status), e.Problem.Type, e.Problem.Detail, e.Problem.RequestID)
}

// ErrWrongKey is a signing key that is not the certificate's: the
// server's publicKeySha256 names another key, or a signature does not
// verify with the certificate's public key.
var ErrWrongKey = errors.New("signclient: the signing key is not the certificate's")

// A Key is the tenant's signing key labelled Label in its partition,
// whose certificate is Certificate, as a crypto.Signer. crypto.Signer's
// Sign takes no context, so a Key carries the one its calls run under.
type Key struct {
	ctx         context.Context
	c           *Client
	label       string
	cert        *x509.Certificate
	algorithm   string
	requestID   string
	certKeyHash string
}

// Key returns the key labelled label, whose certificate is cert, signing
// with algorithm (RSAPKCS1v15, RSAPSS or ECDSA). Its calls run under ctx.
func (c *Client) Key(ctx context.Context, label string, cert *x509.Certificate, algorithm string) (*Key, error) {
	switch cert.PublicKey.(type) {
	case *rsa.PublicKey:
		if algorithm != RSAPKCS1v15 && algorithm != RSAPSS {
			return nil, fmt.Errorf("signclient: the certificate's key is an RSA key; %s signs with another kind", algorithm)
		}
	case *ecdsa.PublicKey:
		if algorithm != ECDSA {
			return nil, fmt.Errorf("signclient: the certificate's key is an ECDSA key; %s signs with another kind", algorithm)
		}
	default:
		return nil, fmt.Errorf("signclient: the certificate's key is a %T: the server signs with RSA and ECDSA keys", cert.PublicKey)
	}
	sum := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	return &Key{ctx: ctx, c: c, label: label, cert: cert, algorithm: algorithm, certKeyHash: hex.EncodeToString(sum[:])}, nil
}

// Public is the certificate's public key.
func (k *Key) Public() crypto.PublicKey { return k.cert.PublicKey }

// RequestID is the server's id of the last signature, for the audit
// trail.
func (k *Key) RequestID() string { return k.requestID }

// Sign has the server sign digest, the hash opts.HashFunc() of the data,
// and returns the signature once it verifies with the certificate's key:
// PKCS #1 v1.5 or PSS (opts a *rsa.PSSOptions, salt as long as the hash)
// for RSA, ASN.1 DER for ECDSA.
func (k *Key) Sign(_ io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	h := opts.HashFunc()
	var hashName string
	switch h {
	case crypto.SHA256:
		hashName = "SHA-256"
	case crypto.SHA384:
		hashName = "SHA-384"
	case crypto.SHA512:
		hashName = "SHA-512"
	default:
		return nil, fmt.Errorf("signclient: the server signs SHA-256, SHA-384 and SHA-512 digests, not %v", h)
	}
	pss, isPSS := opts.(*rsa.PSSOptions)
	if isPSS != (k.algorithm == RSAPSS) {
		return nil, fmt.Errorf("signclient: the caller asked for another padding than %s", k.algorithm)
	}
	if isPSS && pss.SaltLength != rsa.PSSSaltLengthEqualsHash && pss.SaltLength != h.Size() {
		return nil, fmt.Errorf("signclient: the server's PSS salt is as long as the hash, not %d bytes", pss.SaltLength)
	}
	body, err := json.Marshal(request{Tenant: k.c.Tenant, Module: k.c.Module, KeyLabel: k.label, Hash: hashName, Algorithm: k.algorithm, Digests: [][]byte{digest}})
	if err != nil {
		return nil, fmt.Errorf("signclient: %w", err)
	}
	res, err := k.c.post(k.ctx, body)
	if err != nil {
		return nil, err
	}
	k.requestID = res.RequestID
	if res.PublicKeySHA256 != k.certKeyHash {
		return nil, fmt.Errorf("%w: the server signed with key %s, the certificate holds %s", ErrWrongKey, res.PublicKeySHA256, k.certKeyHash)
	}
	if len(res.Signatures) != 1 {
		return nil, fmt.Errorf("signclient: the server answered %d signatures for one digest", len(res.Signatures))
	}
	sig := res.Signatures[0]
	switch pub := k.cert.PublicKey.(type) {
	case *rsa.PublicKey:
		if isPSS {
			err = rsa.VerifyPSS(pub, h, digest, sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
		} else {
			// crypto/rsa, not the validator's cert.VerifyPKCS1v15: this
			// checks the signer's own output, once a signature, and keeps
			// that check independent of the validator's verification code.
			err = rsa.VerifyPKCS1v15(pub, h, digest, sig)
		}
	case *ecdsa.PublicKey:
		if !ecdsa.VerifyASN1(pub, digest, sig) {
			err = errors.New("ECDSA verification failed")
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: the server's signature does not verify with the certificate's key: %w", ErrWrongKey, err)
	}
	return sig, nil
}

// request is a sign request (SignRequest of docs/signing-api.yaml).
type request struct {
	Tenant    string   `json:"tenantId"`
	Module    string   `json:"moduleUuid"`
	KeyLabel  string   `json:"keyLabel"`
	Hash      string   `json:"hashAlgorithm"`
	Algorithm string   `json:"signatureAlgorithm"`
	Digests   [][]byte `json:"digests"`
}

// response is the part of SignResponse the client reads.
type response struct {
	RequestID       string   `json:"requestId"`
	PublicKeySHA256 string   `json:"publicKeySha256"`
	Signatures      [][]byte `json:"signatures"`
}

// post sends body with a fresh token over it.
func (c *Client) post(ctx context.Context, body []byte) (response, error) {
	token, err := c.Token(body)
	if err != nil {
		return response{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+SignPath, bytes.NewReader(body))
	if err != nil {
		return response{}, fmt.Errorf("signclient: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		return response{}, fmt.Errorf("signclient: %w", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return response{}, fmt.Errorf("signclient: reading the answer: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		refusal := &RefusalError{Status: res.StatusCode}
		if json.Unmarshal(raw, &refusal.Problem) != nil {
			refusal.Problem.Detail = "an answer without problem details"
		}
		return response{}, refusal
	}
	var out response
	if err := json.Unmarshal(raw, &out); err != nil {
		return response{}, fmt.Errorf("signclient: the answer is not a sign response: %w", err)
	}
	return out, nil
}

// Token is the proxy's JWT over body (the profile of adapters/signjwt):
// typ svc-dss-sign+jwt, the client key's kid, iss the module, a fresh
// jti, two minutes of life, and the body's SHA-256.
func (c *Client) Token(body []byte) (string, error) {
	var alg jose.SignatureAlgorithm
	switch pub := c.ClientKey.Public().(type) {
	case *ecdsa.PublicKey:
		switch pub.Curve.Params().BitSize {
		case 256:
			alg = jose.ES256
		case 384:
			alg = jose.ES384
		case 521:
			alg = jose.ES512
		}
	case *rsa.PublicKey:
		alg = jose.RS256
	}
	if alg == "" {
		return "", fmt.Errorf("signclient: a client key of type %T signs no token: use an EC (P-256, P-384, P-521) or RSA key", c.ClientKey.Public())
	}
	var jti [16]byte
	if _, err := rand.Read(jti[:]); err != nil {
		return "", fmt.Errorf("signclient: %w", err)
	}
	now := time.Now()
	if c.Now != nil {
		now = c.Now()
	}
	payload, err := json.Marshal(map[string]any{
		"iss": c.Module, "aud": signjwt.Audience, "jti": hex.EncodeToString(jti[:]),
		"iat": now.Unix(), "exp": now.Add(tokenLifetime).Unix(),
		signjwt.ClaimTenant: c.Tenant, signjwt.ClaimModule: c.Module, signjwt.ClaimBodySHA256: signjwt.BodyDigest(body),
	})
	if err != nil {
		return "", fmt.Errorf("signclient: %w", err)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: c.ClientKey}, (&jose.SignerOptions{}).WithType(signjwt.Type).WithHeader("kid", c.KID))
	if err != nil {
		return "", fmt.Errorf("signclient: %w", err)
	}
	jws, err := s.Sign(payload)
	if err != nil {
		return "", fmt.Errorf("signclient: signing the token: %w", err)
	}
	return jws.CompactSerialize()
}
