package hsm

import (
	"bytes"
	"container/heap"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/svc-dss/dss/domain/signing"
	"github.com/svc-dss/dss/ports"
)

const (
	// maxFutureSkew is how far in the future an approval's IssuedAt may
	// lie: approvals made on another machine may come from a clock a
	// little ahead of ours.
	maxFutureSkew = 5 * time.Second
	// nonceSize is the size of the nonces Approve makes, and the least
	// Sign accepts: 128 random bits do not repeat by chance.
	nonceSize = 16
	// maxNonceSize and maxApprovalSignatureSize bound what a caller makes
	// the adapter store and verify (an RSA-16384 signature is 2048 bytes).
	maxNonceSize             = 64
	maxApprovalSignatureSize = 2048
)

// errNoncesFull: the nonce store holds Capacity nonces still in their
// window. Forgetting one would let its approval be replayed.
var errNoncesFull = errors.New("hsm: too many approvals within the approval window")

// checkApproval enforces the SKA use rule for op (see the package doc). It
// must pass before the signing key is used. A refusal wraps
// ports.ErrApprovalRefused; any other error means the check could not run.
func (h *HSM) checkApproval(ctx context.Context, p ports.Partition, op ports.SignOperation) error {
	a := op.Approval
	switch {
	case a.AuthKey.Label == "" && len(a.Signature) == 0:
		return refused("no approval")
	case a.AuthKey.Label == "":
		return refused("the approval names no authorization key")
	case sameKey(a.AuthKey, op.Key):
		return refused("the signing key %q cannot approve its own use", op.Key.Label)
	}
	if h.o.AuthorizationKey != nil {
		want, err := h.o.AuthorizationKey(ctx, p, op.Key)
		if err != nil {
			return fmt.Errorf("hsm: authorization key of %q: %w", op.Key.Label, err)
		}
		if a.AuthKey.Label != want.Label || !bytes.Equal(a.AuthKey.ID, want.ID) {
			return refused("approval by %q, but the key profile of %q requires %q", a.AuthKey.Label, op.Key.Label, want.Label)
		}
	}

	now := h.o.Clock()
	switch {
	case a.IssuedAt.IsZero():
		return refused("the approval has no issue time")
	case a.IssuedAt.After(now.Add(maxFutureSkew)):
		return refused("the approval is issued %v in the future", a.IssuedAt.Sub(now))
	case now.Sub(a.IssuedAt) > h.o.ApprovalWindow:
		return refused("the approval expired: issued %v ago, window %v", now.Sub(a.IssuedAt), h.o.ApprovalWindow)
	case len(a.Nonce) < nonceSize || len(a.Nonce) > maxNonceSize:
		return refused("the approval's nonce is %d bytes, not %d to %d", len(a.Nonce), nonceSize, maxNonceSize)
	case len(a.Signature) == 0 || len(a.Signature) > maxApprovalSignatureSize:
		return refused("the approval's signature is %d bytes", len(a.Signature))
	}

	pub, err := h.publicKey(ctx, p, a.AuthKey)
	if errors.Is(err, ports.ErrKeyNotFound) {
		// Not wrapping ErrKeyNotFound: the signing key's profile is fine,
		// the approval is not.
		return refused("authorization key %q is not in the partition (%v)", a.AuthKey.Label, err)
	}
	if err != nil {
		return err
	}
	payload := signing.ApprovalPayload(op.Key.Label, op.Key.ID, mechanismName(op.Mechanism), op.Hash, op.Data, a.IssuedAt, a.Nonce)
	if err := verifyApproval(pub, payload, a.Signature); err != nil {
		return refused("the signature of authorization key %q does not cover this operation: %v", a.AuthKey.Label, err)
	}

	// Spent only once the approval is known to be genuine, so that
	// forgeries cannot fill the store.
	fresh, err := h.nonces.Use(ctx, "ska-approval:"+hex.EncodeToString(a.Nonce), a.IssuedAt.Add(h.o.ApprovalWindow))
	if errors.Is(err, errNoncesFull) {
		return fmt.Errorf("%w: %w", ports.ErrApprovalRefused, err)
	}
	if err != nil {
		return fmt.Errorf("hsm: record approval nonce: %w", err)
	}
	if !fresh {
		return refused("the approval's nonce was used before")
	}
	return nil
}

func refused(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ports.ErrApprovalRefused, fmt.Sprintf(format, args...))
}

// sameKey reports whether a and b may name the same key: the same label,
// and the same ID or no ID on one side.
func sameKey(a, b ports.KeyRef) bool {
	return a.Label == b.Label && (len(a.ID) == 0 || len(b.ID) == 0 || bytes.Equal(a.ID, b.ID))
}

// verifyApproval checks sig over SHA-256(payload): ECDSA in DER for an EC
// key, PKCS#1 v1.5 for an RSA key.
func verifyApproval(pub crypto.PublicKey, payload, sig []byte) error {
	digest := sha256.Sum256(payload)
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		if !ecdsa.VerifyASN1(k, digest[:], sig) {
			return errors.New("ECDSA verification failed")
		}
		return nil
	case *rsa.PublicKey:
		// crypto/rsa, not the validator's cert.VerifyPKCS1v15: one check
		// per approved signing request, an authorization gate where speed
		// buys nothing and the standard library is the reference.
		return rsa.VerifyPKCS1v15(k, crypto.SHA256, digest[:], sig)
	default:
		return fmt.Errorf("unsupported authorization key type %T", pub)
	}
}

// A nonceStore is the in-process ports.ReplayStore: used identifiers,
// kept until they expire, at most capacity at a time.
type nonceStore struct {
	clock    func() time.Time
	capacity int

	mu     sync.Mutex
	until  map[string]time.Time
	expiry expiryHeap
}

func newNonceStore(clock func() time.Time, capacity int) *nonceStore {
	return &nonceStore{clock: clock, capacity: capacity, until: map[string]time.Time{}}
}

// Use records id as used until until and reports whether it was unused.
// When capacity identifiers are still unexpired it fails with
// errNoncesFull rather than forget one.
func (n *nonceStore) Use(_ context.Context, id string, until time.Time) (bool, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	now := n.clock()
	for len(n.expiry) > 0 && n.expiry[0].until.Before(now) {
		e := heap.Pop(&n.expiry).(expiring)
		delete(n.until, e.id)
	}
	if _, ok := n.until[id]; ok {
		return false, nil
	}
	if len(n.until) >= n.capacity {
		return false, fmt.Errorf("%w (%d)", errNoncesFull, n.capacity)
	}
	n.until[id] = until
	heap.Push(&n.expiry, expiring{id: id, until: until})
	return true, nil
}

type expiring struct {
	id    string
	until time.Time
}

// expiryHeap orders identifiers by expiry, soonest first.
type expiryHeap []expiring

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].until.Before(h[j].until) }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(expiring)) }
func (h *expiryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
