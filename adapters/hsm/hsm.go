package hsm

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/miekg/pkcs11"

	"github.com/svc-dss/dss/domain/signing"
	"github.com/svc-dss/dss/ports"
)

// MaxBatch bounds the inputs of one operation, and so the signatures one
// Sign makes at once.
const MaxBatch = 64

// Defaults of Options.
const (
	DefaultMaxSessions    = 8
	DefaultTimeout        = 10 * time.Second
	DefaultApprovalWindow = 30 * time.Second
	// DefaultNonceCapacity allows about 2000 approved signatures a second
	// with the default window.
	DefaultNonceCapacity = 1 << 16
)

// Options tune an HSM; zero (or negative) values take the defaults.
type Options struct {
	// MaxSessions bounds the sessions kept per partition, and so the
	// operations running on it at once: DefaultMaxSessions.
	MaxSessions int
	// Timeout bounds each operation, waiting for a session included, when
	// the context has no earlier deadline: DefaultTimeout.
	Timeout time.Duration
	// Clock is time.Now when nil. It stamps approvals and judges their
	// age.
	Clock func() time.Time
	// ApprovalWindow is how old an approval may be when Sign checks it:
	// DefaultApprovalWindow.
	ApprovalWindow time.Duration
	// NonceCapacity bounds the in-process store of used approval nonces:
	// DefaultNonceCapacity. It must exceed the approvals used within one
	// ApprovalWindow, or approvals are refused until older nonces expire.
	NonceCapacity int
	// Nonces, when set, replaces the in-process nonce store, for replicas
	// that must not accept each other's used approvals.
	Nonces ports.ReplayStore
	// AuthorizationKey, when set, returns the authorization key of the
	// key profile of signingKey; Sign then refuses approvals by any other
	// key. When nil, an approval by any key of the partition other than
	// the signing key is accepted.
	AuthorizationKey func(ctx context.Context, p ports.Partition, signingKey ports.KeyRef) (ports.KeyRef, error)
}

// An HSM implements ports.HSM over PKCS#11 modules, keeping a pool of
// logged-in sessions per partition. It is safe for concurrent use.
type HSM struct {
	o      Options
	nonces ports.ReplayStore

	mu    sync.Mutex
	pools map[poolKey]*pool

	// Seen by tests through export_test.go.
	signs      atomic.Uint64 // C_Sign calls with a signing key
	beforeSign func() error  // runs before C_SignInit with a signing key
}

var _ ports.HSM = (*HSM)(nil)

// New returns an HSM with options o. It loads nothing: modules are loaded
// and tokens logged in to on first use.
func New(o Options) *HSM {
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.ApprovalWindow <= 0 {
		o.ApprovalWindow = DefaultApprovalWindow
	}
	if o.NonceCapacity <= 0 {
		o.NonceCapacity = DefaultNonceCapacity
	}
	h := &HSM{o: o, nonces: o.Nonces, pools: map[poolKey]*pool{}}
	if h.nonces == nil {
		h.nonces = newNonceStore(o.Clock, o.NonceCapacity)
	}
	return h
}

// PublicKey returns the public key of key in p, read from its
// CKO_PUBLIC_KEY object: an *rsa.PublicKey, or an *ecdsa.PublicKey on
// P-256, P-384 or P-521. A missing key is ports.ErrKeyNotFound.
func (h *HSM) PublicKey(ctx context.Context, p ports.Partition, key ports.KeyRef) (crypto.PublicKey, error) {
	if key.Label == "" {
		return nil, fmt.Errorf("%w: no key label", ErrInvalidOperation)
	}
	ctx, cancel := context.WithTimeout(ctx, h.o.Timeout)
	defer cancel()
	return h.publicKey(ctx, p, key)
}

func (h *HSM) publicKey(ctx context.Context, p ports.Partition, key ports.KeyRef) (crypto.PublicKey, error) {
	// A cached key needs no session: Sign's approval check must not wait
	// for one only to read it.
	if pl := h.existingPool(p); pl != nil {
		if pub := pl.cachedPublicKey(key); pub != nil {
			return pub, nil
		}
	}
	return do(ctx, h, p, "read public key", func(pl *pool, s *session) (crypto.PublicKey, error) {
		return pl.publicKey(s, key)
	})
}

// Approve makes the SKA approval of op by the authorization key authKey of
// p: a signature, with authKey's private key, over
// signing.ApprovalPayload of op stamped with the current time and a fresh
// random nonce (see the package doc). It checks op as Sign would, but
// neither uses nor looks for op's signing key.
func (h *HSM) Approve(ctx context.Context, p ports.Partition, authKey ports.KeyRef, op ports.SignOperation) (ports.Approval, error) {
	if _, err := planFor(op); err != nil {
		return ports.Approval{}, err
	}
	if authKey.Label == "" {
		return ports.Approval{}, fmt.Errorf("%w: no authorization key label", ErrInvalidOperation)
	}
	if sameKey(authKey, op.Key) {
		return ports.Approval{}, fmt.Errorf("%w: the signing key %q cannot approve its own use", ErrInvalidOperation, op.Key.Label)
	}
	ctx, cancel := context.WithTimeout(ctx, h.o.Timeout)
	defer cancel()

	nonce := make([]byte, nonceSize)
	_, _ = rand.Read(nonce) // never fails (crypto/rand)
	// Round(0) drops the monotonic reading: the approval is a wall-clock
	// statement.
	issuedAt := h.o.Clock().Round(0)
	digest := sha256.Sum256(signing.ApprovalPayload(op.Key.Label, op.Key.ID, mechanismName(op.Mechanism), op.Hash, op.Data, issuedAt, nonce))

	sig, err := do(ctx, h, p, "approve", func(pl *pool, s *session) ([]byte, error) {
		key, err := pl.object(s, pkcs11.CKO_PRIVATE_KEY, authKey)
		if err != nil {
			return nil, err
		}
		switch key.keyType {
		case pkcs11.CKK_EC:
			rs, err := signWith(pl, s, pkcs11.NewMechanism(pkcs11.CKM_ECDSA, nil), key, digest[:])
			if err != nil {
				return nil, fmt.Errorf("%w: approve with %q on %s: %w", ports.ErrHSMUnavailable, authKey.Label, pl, err)
			}
			der, err := signing.RawToDER(rs)
			if err != nil {
				return nil, fmt.Errorf("%w: approve with %q on %s: %w", ports.ErrHSMUnavailable, authKey.Label, pl, err)
			}
			return der, nil
		case pkcs11.CKK_RSA:
			di := append(bytes.Clone(digestInfoPrefixes[crypto.SHA256]), digest[:]...)
			sig, err := signWith(pl, s, pkcs11.NewMechanism(pkcs11.CKM_RSA_PKCS, nil), key, di)
			if err != nil {
				return nil, fmt.Errorf("%w: approve with %q on %s: %w", ports.ErrHSMUnavailable, authKey.Label, pl, err)
			}
			return sig, nil
		default:
			return nil, fmt.Errorf("%w: authorization key %q is an %s key, neither RSA nor EC", ErrInvalidOperation, authKey.Label, keyTypeName(key.keyType))
		}
	})
	if err != nil {
		return ports.Approval{}, err
	}
	return ports.Approval{
		AuthKey:   ports.KeyRef{Label: authKey.Label, ID: bytes.Clone(authKey.ID)},
		IssuedAt:  issuedAt,
		Nonce:     nonce,
		Signature: sig,
	}, nil
}

// Sign checks op, then op.Approval against the SKA use rule (see the
// package doc), and only then signs each of op.Data with op.Key's private
// key, in parallel on the partition's sessions, and returns the
// signatures in op.Data's order. A refused approval is
// ports.ErrApprovalRefused, and the signing key is not used. A signature
// is r||s for ECDSA, as the token returns it. Sign does not verify the
// signatures it returns.
func (h *HSM) Sign(ctx context.Context, p ports.Partition, op ports.SignOperation) ([][]byte, error) {
	want, err := planFor(op)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, h.o.Timeout)
	defer cancel()
	if err := h.checkApproval(ctx, p, op); err != nil {
		return nil, err
	}
	sigs := make([][]byte, len(op.Data))
	errs := make([]error, len(op.Data))
	// The inputs run side by side, each on a session of its own; a
	// failure does not cancel the others: an abandoned PKCS#11 call would
	// outlive the batch (see run).
	var wg sync.WaitGroup
	for i, data := range op.Data {
		wg.Go(func() {
			sigs[i], errs[i] = do(ctx, h, p, "sign", func(pl *pool, s *session) ([]byte, error) {
				return h.signOne(pl, s, op, want, data)
			})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("input %d: %w", i, err)
		}
	}
	return sigs, nil
}

// signOne signs data with op.Key on session s.
func (h *HSM) signOne(pl *pool, s *session, op ports.SignOperation, want plan, data []byte) ([]byte, error) {
	key, err := pl.object(s, pkcs11.CKO_PRIVATE_KEY, op.Key)
	if err != nil {
		return nil, err
	}
	if key.keyType != want.keyType {
		return nil, fmt.Errorf("%w: %s needs an %s key; %q is %s", ErrInvalidOperation, mechanismName(op.Mechanism), keyTypeName(want.keyType), op.Key.Label, keyTypeName(key.keyType))
	}
	if h.beforeSign != nil {
		if err := h.beforeSign(); err != nil {
			return nil, fmt.Errorf("%w: sign with %q on %s: %w", ports.ErrHSMUnavailable, op.Key.Label, pl, err)
		}
	}
	h.signs.Add(1)
	sig, err := signWith(pl, s, want.mechanism, key, data)
	if err != nil {
		return nil, fmt.Errorf("%w: sign with %q on %s: %w", ports.ErrHSMUnavailable, op.Key.Label, pl, err)
	}
	return sig, nil
}

// signWith runs C_SignInit and C_Sign.
func signWith(pl *pool, s *session, m *pkcs11.Mechanism, key object, data []byte) ([]byte, error) {
	if err := pl.ctx.SignInit(s.h, []*pkcs11.Mechanism{m}, key.h); err != nil {
		return nil, err
	}
	return pl.ctx.Sign(s.h, data)
}

// do runs fn with a session of p's pool under ctx, and once more with a
// fresh session and login if the first attempt lost its session or login.
func do[T any](ctx context.Context, h *HSM, p ports.Partition, what string, fn func(*pool, *session) (T, error)) (T, error) {
	var zero T
	for attempt := 0; ; attempt++ {
		r := run(ctx, h, p, fn)
		switch {
		case r.err == nil:
			return r.v, nil
		case ctx.Err() != nil && errors.Is(r.err, ctx.Err()):
			return zero, timeout(ctx, what)
		case attempt == 0 && r.pool != nil && recoverable(r.err):
			r.pool.reset(r.gen, r.err)
			continue
		case recoverable(r.err) && !errors.Is(r.err, ports.ErrHSMUnavailable):
			return zero, fmt.Errorf("%w: %s: %w", ports.ErrHSMUnavailable, what, r.err)
		default:
			return zero, r.err
		}
	}
}

type result[T any] struct {
	v    T
	err  error
	pool *pool
	gen  uint64 // of the session fn ran with
}

// run makes one attempt. The PKCS#11 calls run in a goroutine, because
// they cannot be interrupted: at ctx's deadline run returns (with the
// context's error and no pool) and leaves the goroutine to finish the call
// and give its session back.
func run[T any](ctx context.Context, h *HSM, p ports.Partition, fn func(*pool, *session) (T, error)) result[T] {
	done := make(chan result[T], 1) // the goroutine never blocks on it
	go func() {
		pl, err := h.pool(p)
		if err != nil {
			done <- result[T]{err: err}
			return
		}
		gen := pl.gen.Load()
		s, err := pl.acquire(ctx)
		if err != nil {
			done <- result[T]{err: err, pool: pl, gen: gen}
			return
		}
		if err := ctx.Err(); err != nil {
			// The caller has gone: do not start work nobody will see.
			pl.release(s, nil)
			done <- result[T]{err: err}
			return
		}
		v, err := fn(pl, s)
		pl.release(s, err)
		done <- result[T]{v: v, err: err, pool: pl, gen: s.gen}
	}()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		return result[T]{err: ctx.Err()}
	}
}

// timeout is the error of an operation whose context is done: a missed
// deadline is ports.ErrHSMTimeout, a cancellation is the context's error.
func timeout(ctx context.Context, what string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %s: %w", ports.ErrHSMTimeout, what, ctx.Err())
	}
	return fmt.Errorf("hsm: %s: %w", what, ctx.Err())
}

// pool returns the pool of p, making it on first use. A partition with
// another PIN than its pool's replaces the pool, so that the new PIN is
// tried (and a refused one is not tried again).
func (h *HSM) pool(p ports.Partition) (*pool, error) {
	key, err := poolKeyOf(p)
	if err != nil {
		return nil, err
	}
	if pl := h.existingPool(p); pl != nil {
		return pl, nil
	}
	ctx, err := loadModule(p.Module)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	pl := h.pools[key]
	if pl != nil && samePIN(pl, p) {
		return pl, nil // made meanwhile
	}
	if pl != nil {
		pl.retire()
	}
	pl = newPool(key, ctx, p.PIN, h.o.MaxSessions)
	h.pools[key] = pl
	return pl, nil
}

// existingPool returns the pool of p if there is one for p's PIN, and nil
// otherwise.
func (h *HSM) existingPool(p ports.Partition) *pool {
	key, err := poolKeyOf(p)
	if err != nil {
		return nil
	}
	h.mu.Lock()
	pl := h.pools[key]
	h.mu.Unlock()
	if pl == nil || !samePIN(pl, p) {
		return nil
	}
	return pl
}

func samePIN(pl *pool, p ports.Partition) bool {
	return subtle.ConstantTimeCompare([]byte(pl.pin), []byte(p.PIN)) == 1
}

func poolKeyOf(p ports.Partition) (poolKey, error) {
	key := poolKey{module: p.Module, label: p.TokenLabel}
	if p.Slot != nil {
		key.bySlot, key.slot = true, *p.Slot
	} else if p.TokenLabel == "" {
		return poolKey{}, fmt.Errorf("%w: partition of tenant %q names neither a slot nor a token label", ports.ErrHSMUnavailable, p.Tenant)
	}
	switch strings.ToLower(p.User) {
	case "", "user":
		key.user = pkcs11.CKU_USER
	default:
		// Signing is the normal user's business; never the SO's.
		return poolKey{}, fmt.Errorf("%w: partition of tenant %q: user %q not supported (only \"user\")", ports.ErrHSMUnavailable, p.Tenant, p.User)
	}
	return key, nil
}
