package tsp

import (
	"crypto"
	"crypto/rand"
	"encoding/asn1"
	"fmt"
	"math/big"
	"strings"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// PKIStatus values (RFC 3161, section 2.4.2).
const (
	StatusGranted                = 0
	StatusGrantedWithMods        = 1
	StatusRejection              = 2
	StatusWaiting                = 3
	StatusRevocationWarning      = 4
	StatusRevocationNotification = 5
)

// A RejectedError is a TimeStampResp without a token. It wraps
// ErrRejected.
type RejectedError struct {
	Status int
	// FailInfo holds the PKIFailureInfo bits set (0 badAlg, 2
	// badRequest, 5 badDataFormat, 14 timeNotAvailable, 15
	// unacceptedPolicy, 16 unacceptedExtension, 17 addInfoNotAvailable,
	// 25 systemFailure).
	FailInfo []int
	Text     string
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("tsp: time-stamp request rejected: status %d, failure info %v %q", e.Status, e.FailInfo, e.Text)
}

func (e *RejectedError) Unwrap() error { return ErrRejected }

// ParseResponse reads a DER TimeStampResp (RFC 3161, section 2.4.2) and
// returns its token and the raw token, or a *RejectedError.
func ParseResponse(resp []byte) (*Token, []byte, error) {
	in := cryptobyte.String(resp)
	var seq, status cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() || !seq.ReadASN1(&status, cbasn1.SEQUENCE) {
		return nil, nil, fmt.Errorf("%w: TimeStampResp", ErrMalformed)
	}
	rej := &RejectedError{}
	var code int64
	if !status.ReadASN1Int64WithTag(&code, cbasn1.INTEGER) || code < 0 || code > StatusRevocationNotification {
		return nil, nil, fmt.Errorf("%w: PKIStatus", ErrMalformed)
	}
	rej.Status = int(code)
	if status.PeekASN1Tag(cbasn1.SEQUENCE) {
		var texts cryptobyte.String
		status.ReadASN1(&texts, cbasn1.SEQUENCE)
		var parts []string
		for !texts.Empty() {
			if len(parts) == MaxStatusStrings {
				return nil, nil, fmt.Errorf("%w: more than %d status strings", ErrLimitExceeded, MaxStatusStrings)
			}
			var t cryptobyte.String
			if !texts.ReadASN1(&t, cbasn1.UTF8String) {
				return nil, nil, fmt.Errorf("%w: PKIFreeText", ErrMalformed)
			}
			parts = append(parts, string(t))
		}
		rej.Text = strings.Join(parts, "; ")
	}
	if status.PeekASN1Tag(cbasn1.BIT_STRING) {
		var bits asn1.BitString
		if !status.ReadASN1BitString(&bits) {
			return nil, nil, fmt.Errorf("%w: PKIFailureInfo", ErrMalformed)
		}
		for i := range bits.BitLength {
			if bits.At(i) == 1 {
				rej.FailInfo = append(rej.FailInfo, i)
			}
		}
	}
	if !status.Empty() {
		return nil, nil, fmt.Errorf("%w: trailing data in PKIStatusInfo", ErrMalformed)
	}
	if code != StatusGranted && code != StatusGrantedWithMods {
		return nil, nil, rej
	}
	var token cryptobyte.String
	if !seq.ReadASN1Element(&token, cbasn1.SEQUENCE) || !seq.Empty() {
		return nil, nil, fmt.Errorf("%w: granted response without a token", ErrMalformed)
	}
	t, err := Parse(token)
	if err != nil {
		return nil, nil, err
	}
	return t, token, nil
}

// RequestOptions are the optional fields of a TimeStampReq.
type RequestOptions struct {
	// Policy is the reqPolicy, omitted when nil.
	Policy asn1.ObjectIdentifier
	// Nonce is omitted when nil; NewNonce makes one.
	Nonce *big.Int
	// CertReq asks the TSA to include its certificate in the token.
	CertReq bool
}

// CreateRequest returns the DER TimeStampReq (RFC 3161, section 2.4.1) for
// digest, the hash under h of the data to time-stamp.
func CreateRequest(h crypto.Hash, digest []byte, opts RequestOptions) ([]byte, error) {
	oid := cert.OIDFromHash(h)
	if oid == nil || h == crypto.MD5 {
		// MD5 is read in tokens, to be refused by date; never asked for.
		return nil, fmt.Errorf("%w: hash %v", ErrUnsupported, h)
	}
	if len(digest) != h.Size() {
		return nil, fmt.Errorf("tsp: %d-byte digest for %v", len(digest), h)
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1Int64(1)
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // MessageImprint
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(oid)
			})
			b.AddASN1OctetString(digest)
		})
		if opts.Policy != nil {
			b.AddASN1ObjectIdentifier(opts.Policy)
		}
		if opts.Nonce != nil {
			b.AddASN1BigInt(opts.Nonce)
		}
		if opts.CertReq {
			b.AddASN1Boolean(true)
		}
	})
	return b.Bytes()
}

// NewNonce returns a random positive 64-bit nonce.
func NewNonce() (*big.Int, error) {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 63))
	if err != nil {
		return nil, fmt.Errorf("tsp: nonce: %w", err)
	}
	return n.Add(n, big.NewInt(1)), nil
}
