package hsm

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/miekg/pkcs11"

	"github.com/svc-dss/dss/ports"
)

// A poolKey identifies a partition's pool. The PIN is not part of it: two
// pools for one token would share the token's one login anyway.
type poolKey struct {
	module string
	bySlot bool
	slot   uint
	label  string
	user   uint
}

// A pool holds the sessions of one partition, logged in once, and the
// handles and public keys found through them.
//
// Sessions come from idle, a channel, so that callers never wait for each
// other except when all MaxSessions sessions are busy; sem holds one token
// per open session and bounds their number.
//
// gen counts resets. A reset (after a lost session or login) drops the
// idle sessions and the caches and bumps gen; sessions of an older gen are
// closed when they come back, so that no caller picks up a dead session
// twice.
type pool struct {
	key  poolKey
	ctx  *pkcs11.Ctx
	pin  string // never logged
	idle chan *session
	sem  chan struct{}
	gen  atomic.Uint64
	// resets counts the times the pool recovered from a lost session or
	// login (seen by tests).
	resets atomic.Uint64
	// retired is set when a partition with another PIN replaced the
	// pool: its sessions are closed as they come back.
	retired atomic.Bool

	mu       sync.Mutex // held across slot look-up, C_OpenSession and C_Login
	slot     uint
	haveSlot bool
	loggedIn bool
	pinErr   error // the PIN was refused: not tried again

	omu     sync.RWMutex
	objects map[objectKey]object
	pubs    map[objectKey]crypto.PublicKey
}

type session struct {
	h   pkcs11.SessionHandle
	gen uint64
}

type objectKey struct {
	class uint
	label string
	id    string
}

// An object is a cached key handle with its key type (CKK_RSA, CKK_EC).
type object struct {
	h       pkcs11.ObjectHandle
	keyType uint
}

func newPool(key poolKey, ctx *pkcs11.Ctx, pin string, maxSessions int) *pool {
	return &pool{
		key:     key,
		ctx:     ctx,
		pin:     pin,
		idle:    make(chan *session, maxSessions),
		sem:     make(chan struct{}, maxSessions),
		objects: map[objectKey]object{},
		pubs:    map[objectKey]crypto.PublicKey{},
	}
}

// String names the partition's token in errors; it never includes the PIN.
func (pl *pool) String() string {
	if pl.key.bySlot {
		return fmt.Sprintf("token in slot %d of %s", pl.key.slot, pl.key.module)
	}
	return fmt.Sprintf("token %q of %s", pl.key.label, pl.key.module)
}

// acquire returns a session, idle or newly opened, waiting while all
// sessions are busy until ctx is done.
func (pl *pool) acquire(ctx context.Context) (*session, error) {
	for {
		var s *session
		// An idle session first: opening one costs a round trip.
		select {
		case s = <-pl.idle:
		default:
			select {
			case s = <-pl.idle:
			case pl.sem <- struct{}{}:
				s, err := pl.open()
				if err != nil {
					<-pl.sem
					return nil, err
				}
				return s, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if s.gen == pl.gen.Load() {
			return s, nil
		}
		// Put back by a caller racing a reset.
		pl.discard(s)
	}
}

// release returns s to the pool after an operation that ended with err. A
// session that saw a PKCS#11 error is closed rather than trusted again: it
// may be dead, or hold an unfinished operation.
func (pl *pool) release(s *session, err error) {
	var p11 pkcs11.Error
	if errors.As(err, &p11) || s.gen != pl.gen.Load() || pl.retired.Load() {
		pl.discard(s)
		return
	}
	// Never blocks: there are at most cap(idle) sessions.
	pl.idle <- s
	if pl.retired.Load() {
		pl.drain()
	}
}

func (pl *pool) discard(s *session) {
	// The session may be gone already; there is nothing to do about an
	// error here.
	_ = pl.ctx.CloseSession(s.h)
	<-pl.sem
}

// drain closes the idle sessions.
func (pl *pool) drain() {
	for {
		select {
		case s := <-pl.idle:
			pl.discard(s)
		default:
			return
		}
	}
}

// open opens a session and, the first time and after a reset, logs in.
// The caller holds a token of sem.
func (pl *pool) open() (*session, error) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.pinErr != nil {
		return nil, pl.pinErr
	}
	if !pl.haveSlot {
		slot, err := pl.findSlot()
		if err != nil {
			return nil, err
		}
		pl.slot, pl.haveSlot = slot, true
	}
	gen := pl.gen.Load()
	// Read-only: signing needs no more, and a user may log in with it.
	h, err := pl.ctx.OpenSession(pl.slot, pkcs11.CKF_SERIAL_SESSION)
	if err != nil {
		return nil, fmt.Errorf("%w: open session on %s: %w", ports.ErrHSMUnavailable, pl, err)
	}
	if !pl.loggedIn {
		// Logins are per application and token, not per session: one
		// login serves every session of the pool, present and future.
		err := pl.ctx.Login(h, pl.key.user, pl.pin)
		if err != nil && !isCKR(err, pkcs11.CKR_USER_ALREADY_LOGGED_IN) {
			_ = pl.ctx.CloseSession(h)
			if pinRefused(err) {
				// Trying the same PIN again would only bring the user
				// closer to being locked.
				pl.pinErr = fmt.Errorf("%w: log in to %s: the PIN was refused (%v); it is not tried again until the partition's PIN changes", ports.ErrHSMUnavailable, pl, err)
				return nil, pl.pinErr
			}
			return nil, fmt.Errorf("%w: log in to %s: %w", ports.ErrHSMUnavailable, pl, err)
		}
		pl.loggedIn = true
	}
	return &session{h: h, gen: gen}, nil
}

// pinRefused reports whether a C_Login error is about the PIN itself.
func pinRefused(err error) bool {
	for _, rv := range []uint{
		pkcs11.CKR_PIN_INCORRECT,
		pkcs11.CKR_PIN_INVALID,
		pkcs11.CKR_PIN_LEN_RANGE,
		pkcs11.CKR_PIN_EXPIRED,
		pkcs11.CKR_PIN_LOCKED,
		pkcs11.CKR_USER_PIN_NOT_INITIALIZED,
	} {
		if isCKR(err, rv) {
			return true
		}
	}
	return false
}

// findSlot returns the partition's slot: the configured slot ID, which
// must hold a token (with the configured label, if any), or the one slot
// whose token has the configured label. The caller holds mu.
func (pl *pool) findSlot() (uint, error) {
	if pl.key.bySlot {
		ti, err := pl.ctx.GetTokenInfo(pl.key.slot)
		if err != nil {
			return 0, fmt.Errorf("%w: %s: %w", ports.ErrHSMUnavailable, pl, err)
		}
		if pl.key.label != "" && ti.Label != pl.key.label {
			return 0, fmt.Errorf("%w: slot %d of %s holds token %q, not %q", ports.ErrHSMUnavailable, pl.key.slot, pl.key.module, ti.Label, pl.key.label)
		}
		return pl.key.slot, nil
	}
	slots, err := pl.ctx.GetSlotList(true)
	if err != nil {
		return 0, fmt.Errorf("%w: list slots of %s: %w", ports.ErrHSMUnavailable, pl.key.module, err)
	}
	var found []uint
	for _, s := range slots {
		ti, err := pl.ctx.GetTokenInfo(s)
		if err != nil {
			// The token may have gone since the slot list; it is not
			// ours unless its label says so.
			continue
		}
		if ti.Label == pl.key.label {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 0:
		return 0, fmt.Errorf("%w: no %s among %d slots with a token", ports.ErrHSMUnavailable, pl, len(slots))
	case 1:
		return found[0], nil
	default:
		return 0, fmt.Errorf("%w: %d slots hold a %s; name the slot", ports.ErrHSMUnavailable, len(found), pl)
	}
}

// recoverable reports whether err means the session or the login is lost,
// or a cached handle went with it: reopening and logging in again may help.
func recoverable(err error) bool {
	for _, rv := range []uint{
		pkcs11.CKR_USER_NOT_LOGGED_IN,
		pkcs11.CKR_SESSION_HANDLE_INVALID,
		pkcs11.CKR_SESSION_CLOSED,
		pkcs11.CKR_DEVICE_REMOVED,
		pkcs11.CKR_TOKEN_NOT_PRESENT,
		pkcs11.CKR_SLOT_ID_INVALID,
		// SoftHSM2, for one, forgets the handles of private objects at
		// logout.
		pkcs11.CKR_OBJECT_HANDLE_INVALID,
		pkcs11.CKR_KEY_HANDLE_INVALID,
	} {
		if isCKR(err, rv) {
			return true
		}
	}
	return false
}

// reset forgets the sessions, the login and the cached handles after err
// showed that a session of generation gen was lost. Only the first of
// several callers that saw the same loss resets.
func (pl *pool) reset(gen uint64, err error) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if !pl.gen.CompareAndSwap(gen, gen+1) {
		return
	}
	pl.resets.Add(1)
	pl.loggedIn = false
	if isCKR(err, pkcs11.CKR_DEVICE_REMOVED) || isCKR(err, pkcs11.CKR_TOKEN_NOT_PRESENT) || isCKR(err, pkcs11.CKR_SLOT_ID_INVALID) {
		// The token may come back in another slot.
		pl.haveSlot = false
	}
	pl.omu.Lock()
	clear(pl.objects)
	clear(pl.pubs)
	pl.omu.Unlock()
	pl.drain()
}

// retire stops the pool from keeping sessions, once a new pool replaced it.
func (pl *pool) retire() {
	pl.retired.Store(true)
	pl.drain()
}

// object returns the handle of the key of class (CKO_PRIVATE_KEY or
// CKO_PUBLIC_KEY) named by ref, from the cache or found through s. A key
// that is not there is ports.ErrKeyNotFound; so is one that is there
// twice, as guessing would sign with the wrong key.
func (pl *pool) object(s *session, class uint, ref ports.KeyRef) (object, error) {
	k := objectKey{class: class, label: ref.Label, id: string(ref.ID)}
	pl.omu.RLock()
	o, ok := pl.objects[k]
	pl.omu.RUnlock()
	if ok {
		return o, nil
	}

	tmpl := []*pkcs11.Attribute{
		pkcs11.NewAttribute(pkcs11.CKA_CLASS, class),
		pkcs11.NewAttribute(pkcs11.CKA_LABEL, ref.Label),
	}
	if len(ref.ID) > 0 {
		tmpl = append(tmpl, pkcs11.NewAttribute(pkcs11.CKA_ID, ref.ID))
	}
	if err := pl.ctx.FindObjectsInit(s.h, tmpl); err != nil {
		return object{}, fmt.Errorf("%w: find %s on %s: %w", ports.ErrHSMUnavailable, describe(class, ref), pl, err)
	}
	hs, _, err := pl.ctx.FindObjects(s.h, 2)
	if ferr := pl.ctx.FindObjectsFinal(s.h); err == nil {
		err = ferr
	}
	if err != nil {
		return object{}, fmt.Errorf("%w: find %s on %s: %w", ports.ErrHSMUnavailable, describe(class, ref), pl, err)
	}
	switch len(hs) {
	case 0:
		if class == pkcs11.CKO_PRIVATE_KEY {
			// Private objects are invisible without a login, and the
			// login may have been lost behind our back.
			info, err := pl.ctx.GetSessionInfo(s.h)
			if err != nil {
				return object{}, fmt.Errorf("%w: session state on %s: %w", ports.ErrHSMUnavailable, pl, err)
			}
			if info.State != pkcs11.CKS_RO_USER_FUNCTIONS && info.State != pkcs11.CKS_RW_USER_FUNCTIONS {
				return object{}, fmt.Errorf("%w: find %s on %s: %w", ports.ErrHSMUnavailable, describe(class, ref), pl, pkcs11.Error(pkcs11.CKR_USER_NOT_LOGGED_IN))
			}
		}
		return object{}, fmt.Errorf("%w: no %s on %s", ports.ErrKeyNotFound, describe(class, ref), pl)
	case 1:
	default:
		return object{}, fmt.Errorf("%w: more than one %s on %s; give the key an ID", ports.ErrKeyNotFound, describe(class, ref), pl)
	}

	attrs, err := pl.ctx.GetAttributeValue(s.h, hs[0], []*pkcs11.Attribute{pkcs11.NewAttribute(pkcs11.CKA_KEY_TYPE, nil)})
	if err != nil {
		return object{}, fmt.Errorf("%w: key type of %s on %s: %w", ports.ErrHSMUnavailable, describe(class, ref), pl, err)
	}
	keyType, err := ulong(attrs[0].Value)
	if err != nil {
		return object{}, fmt.Errorf("%w: key type of %s on %s: %w", ports.ErrHSMUnavailable, describe(class, ref), pl, err)
	}
	o = object{h: hs[0], keyType: keyType}

	pl.omu.Lock()
	// A handle found before a reset may be stale: do not cache it.
	if s.gen == pl.gen.Load() {
		pl.objects[k] = o
	}
	pl.omu.Unlock()
	return o, nil
}

// cachedPublicKey returns the public key named by ref if it is cached, and
// nil otherwise.
func (pl *pool) cachedPublicKey(ref ports.KeyRef) crypto.PublicKey {
	pl.omu.RLock()
	defer pl.omu.RUnlock()
	return pl.pubs[objectKey{class: pkcs11.CKO_PUBLIC_KEY, label: ref.Label, id: string(ref.ID)}]
}

// publicKey returns the public key named by ref, from the cache or read
// from its CKO_PUBLIC_KEY object.
func (pl *pool) publicKey(s *session, ref ports.KeyRef) (crypto.PublicKey, error) {
	k := objectKey{class: pkcs11.CKO_PUBLIC_KEY, label: ref.Label, id: string(ref.ID)}
	pl.omu.RLock()
	pub, ok := pl.pubs[k]
	pl.omu.RUnlock()
	if ok {
		return pub, nil
	}
	o, err := pl.object(s, pkcs11.CKO_PUBLIC_KEY, ref)
	if err != nil {
		return nil, err
	}
	pub, err = readPublicKey(pl.ctx, s.h, o)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", describe(pkcs11.CKO_PUBLIC_KEY, ref), pl, err)
	}
	pl.omu.Lock()
	if s.gen == pl.gen.Load() {
		pl.pubs[k] = pub
	}
	pl.omu.Unlock()
	return pub, nil
}

func describe(class uint, ref ports.KeyRef) string {
	kind := "private key"
	if class == pkcs11.CKO_PUBLIC_KEY {
		kind = "public key"
	}
	if len(ref.ID) > 0 {
		return fmt.Sprintf("%s %q (ID %x)", kind, ref.Label, ref.ID)
	}
	return fmt.Sprintf("%s %q", kind, ref.Label)
}
