package hsm_test

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	_ "crypto/sha512" // SHA-384 and SHA-512 for crypto.Hash.New
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/miekg/pkcs11"

	"github.com/svc-dss/dss/adapters/hsm"
	"github.com/svc-dss/dss/domain/signing"
	"github.com/svc-dss/dss/fixtures/softhsm"
	"github.com/svc-dss/dss/ports"
)

// Keys of every test partition. The authorization key and the other EC
// key are both P-256, so that an approval by the wrong one fails only on
// its signature.
var (
	rsaKey   = ports.KeyRef{Label: "rsa-signing", ID: []byte{0x01}}
	ecKey    = ports.KeyRef{Label: "ec-signing", ID: []byte{0x02}}
	authKey  = ports.KeyRef{Label: "ska-authorization", ID: []byte{0x03}}
	otherKey = ports.KeyRef{Label: "other-ec", ID: []byte{0x04}}
)

// t0 is the pinned time of the tests that set the clock.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// A partition is a SoftHSM2 token with the keys above.
type partition struct {
	tok           *softhsm.Token
	p             ports.Partition
	rsa, ec, auth softhsm.KeyPair
}

func newPartition(t testing.TB, tenant string) partition {
	t.Helper()
	tok := softhsm.New(t)
	rsa, err := tok.GenerateRSAKey(rsaKey.Label, rsaKey.ID, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ec, err := tok.GenerateECKey(ecKey.Label, ecKey.ID)
	if err != nil {
		t.Fatal(err)
	}
	auth, err := tok.GenerateECKey(authKey.Label, authKey.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tok.GenerateECKey(otherKey.Label, otherKey.ID); err != nil {
		t.Fatal(err)
	}
	return partition{
		tok: tok,
		p: ports.Partition{
			Tenant:     tenant,
			Type:       "softhsm2",
			Module:     tok.ModulePath(),
			TokenLabel: tok.Label(),
			PIN:        tok.UserPIN(),
		},
		rsa:  rsa,
		ec:   ec,
		auth: auth,
	}
}

// bySlot returns p found by slot ID instead of token label.
func (pt partition) bySlot() ports.Partition {
	p := pt.p
	slot := pt.tok.Slot()
	p.Slot, p.TokenLabel = &slot, ""
	return p
}

// A clock is a settable Options.Clock.
type clock struct{ ns atomic.Int64 }

func newClock(t time.Time) *clock {
	c := &clock{}
	c.Set(t)
	return c
}

func (c *clock) Now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) Set(t time.Time)         { c.ns.Store(t.UnixNano()) }
func (c *clock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

var digestInfoPrefix = map[crypto.Hash][]byte{
	crypto.SHA256: {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20},
	crypto.SHA384: {0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30},
	crypto.SHA512: {0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40},
}

// operation returns the operation signing msg's digest with key, and the
// digest.
func operation(key ports.KeyRef, m ports.Mechanism, hash crypto.Hash, msg string) (ports.SignOperation, []byte) {
	hh := hash.New()
	hh.Write([]byte(msg))
	digest := hh.Sum(nil)
	data := digest
	if m == ports.MechanismRSAPKCS1 {
		data = append(bytes.Clone(digestInfoPrefix[hash]), digest...)
	}
	return ports.SignOperation{Key: key, Mechanism: m, Hash: hash, Data: [][]byte{data}}, digest
}

// approved returns op with an approval by authKey.
func approved(t testing.TB, h *hsm.HSM, p ports.Partition, op ports.SignOperation) ports.SignOperation {
	t.Helper()
	a, err := h.Approve(t.Context(), p, authKey, op)
	if err != nil {
		t.Fatalf("Approve: %v", err)
	}
	op.Approval = a
	return op
}

// verify checks sig, as Sign returned it, with pub.
func verify(t testing.TB, pub crypto.PublicKey, op ports.SignOperation, digest, sig []byte) {
	t.Helper()
	if err := verifySignature(pub, op, digest, sig); err != nil {
		t.Fatal(err)
	}
}

func verifySignature(pub crypto.PublicKey, op ports.SignOperation, digest, sig []byte) error {
	var err error
	switch op.Mechanism {
	case ports.MechanismRSAPKCS1:
		err = rsa.VerifyPKCS1v15(pub.(*rsa.PublicKey), op.Hash, digest, sig)
	case ports.MechanismRSAPSS:
		err = rsa.VerifyPSS(pub.(*rsa.PublicKey), op.Hash, digest, sig, &rsa.PSSOptions{SaltLength: op.Hash.Size(), Hash: op.Hash})
	case ports.MechanismECDSA:
		ec := pub.(*ecdsa.PublicKey)
		size := (ec.Curve.Params().BitSize + 7) / 8
		if len(sig) != 2*size {
			err = fmt.Errorf("ECDSA signature is %d bytes, not r||s of %d", len(sig), 2*size)
		} else if !ecdsa.Verify(ec, digest, new(big.Int).SetBytes(sig[:size]), new(big.Int).SetBytes(sig[size:])) {
			err = errors.New("ECDSA verification failed")
		}
	}
	if err != nil {
		return fmt.Errorf("verify signature of mechanism %d: %w", op.Mechanism, err)
	}
	return nil
}

func TestSign(t *testing.T) {
	t.Parallel()
	a, b := newPartition(t, "tenant-a"), newPartition(t, "tenant-b")
	h := hsm.New(hsm.Options{})

	cases := []struct {
		name string
		key  ports.KeyRef
		mech ports.Mechanism
		hash crypto.Hash
	}{
		{"RSA PKCS#1 v1.5 SHA-256", rsaKey, ports.MechanismRSAPKCS1, crypto.SHA256},
		{"RSA PKCS#1 v1.5 SHA-384", rsaKey, ports.MechanismRSAPKCS1, crypto.SHA384},
		{"RSA PKCS#1 v1.5 SHA-512", rsaKey, ports.MechanismRSAPKCS1, crypto.SHA512},
		{"RSA-PSS SHA-256", rsaKey, ports.MechanismRSAPSS, crypto.SHA256},
		{"RSA-PSS SHA-384", rsaKey, ports.MechanismRSAPSS, crypto.SHA384},
		{"RSA-PSS SHA-512", rsaKey, ports.MechanismRSAPSS, crypto.SHA512},
		{"ECDSA P-256 SHA-256", ecKey, ports.MechanismECDSA, crypto.SHA256},
		{"ECDSA P-256 SHA-384", ecKey, ports.MechanismECDSA, crypto.SHA384},
	}
	partitions := []struct {
		name string
		p    ports.Partition
	}{
		{"by token label", a.p},
		{"by slot ID", b.bySlot()},
	}
	for _, pt := range partitions {
		for _, c := range cases {
			t.Run(pt.name+"/"+c.name, func(t *testing.T) {
				is := is.New(t)
				op, digest := operation(c.key, c.mech, c.hash, "document of "+pt.p.Tenant)
				op = approved(t, h, pt.p, op)
				sig, err := sign1(t.Context(), h, pt.p, op)
				is.NoErr(err)
				pub, err := h.PublicKey(t.Context(), pt.p, c.key)
				is.NoErr(err)
				verify(t, pub, op, digest, sig)
			})
		}
	}

	t.Run("partitions hold different keys", func(t *testing.T) {
		is := is.New(t)
		pa, err := h.PublicKey(t.Context(), a.p, ecKey)
		is.NoErr(err)
		pb, err := h.PublicKey(t.Context(), b.p, ecKey)
		is.NoErr(err)
		is.True(!pa.(*ecdsa.PublicKey).Equal(pb))
	})
}

func TestPublicKey(t *testing.T) {
	t.Parallel()
	pt := newPartition(t, "tenant")
	kp, err := pt.tok.GenerateECKey("ec-readback", nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := pt.tok.PublicKey(kp.Public)
	if err != nil {
		t.Fatal(err)
	}
	h := hsm.New(hsm.Options{})

	t.Run("RSA-2048", func(t *testing.T) {
		is := is.New(t)
		pub, err := h.PublicKey(t.Context(), pt.p, rsaKey)
		is.NoErr(err)
		rsaPub, ok := pub.(*rsa.PublicKey)
		is.True(ok)
		is.Equal(rsaPub.Size(), 256)
		is.Equal(rsaPub.E, 65537)
	})
	t.Run("P-256, found by label alone", func(t *testing.T) {
		is := is.New(t)
		pub, err := h.PublicKey(t.Context(), pt.p, ports.KeyRef{Label: "ec-readback"})
		is.NoErr(err)
		ecPub, ok := pub.(*ecdsa.PublicKey)
		is.True(ok)
		is.Equal(ecPub.Curve.Params().Name, "P-256")
		is.True(ecPub.Equal(want)) // as the fixture reads it
	})
	t.Run("unknown key", func(t *testing.T) {
		is := is.New(t)
		for _, ref := range []ports.KeyRef{{Label: "no-such-key"}, {Label: ecKey.Label, ID: []byte{0x7f}}} {
			_, err := h.PublicKey(t.Context(), pt.p, ref)
			is.True(errors.Is(err, ports.ErrKeyNotFound))
		}
	})
}

func TestApprovalRefused(t *testing.T) {
	t.Parallel()
	a, b := newPartition(t, "tenant-a"), newPartition(t, "tenant-b")
	clk := newClock(t0)
	h := hsm.New(hsm.Options{
		Clock: clk.Now,
		AuthorizationKey: func(_ context.Context, _ ports.Partition, _ ports.KeyRef) (ports.KeyRef, error) {
			return authKey, nil // the key profile of every key
		},
	})

	// rawApproval is an approval of op by authKey of partition a signed
	// over a payload built from the given fields, bypassing Approve's
	// checks, as a forger holding the authorization key would.
	rawApproval := func(t *testing.T, keyLabel string, mech string, hash crypto.Hash, data [][]byte) ports.Approval {
		t.Helper()
		nonce := make([]byte, 16)
		_, _ = rand.Read(nonce)
		payload := signing.ApprovalPayload(keyLabel, ecKey.ID, mech, hash, data, clk.Now(), nonce)
		digest := sha256.Sum256(payload)
		ctx := a.tok.Ctx()
		if err := ctx.SignInit(a.tok.Session(), []*pkcs11.Mechanism{pkcs11.NewMechanism(pkcs11.CKM_ECDSA, nil)}, a.auth.Private); err != nil {
			t.Fatal(err)
		}
		rs, err := ctx.Sign(a.tok.Session(), digest[:])
		if err != nil {
			t.Fatal(err)
		}
		der, err := asn1.Marshal(struct{ R, S *big.Int }{new(big.Int).SetBytes(rs[:32]), new(big.Int).SetBytes(rs[32:])})
		if err != nil {
			t.Fatal(err)
		}
		return ports.Approval{AuthKey: authKey, IssuedAt: clk.Now(), Nonce: nonce, Signature: der}
	}

	cases := []struct {
		name string
		// op returns the operation handed to Sign.
		op     func(t *testing.T) ports.SignOperation
		refuse bool
	}{
		{"valid approval", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "valid")
			return approved(t, h, a.p, op)
		}, false},
		{"missing approval", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "missing")
			return op
		}, true},
		{"tampered data", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "tampered")
			op = approved(t, h, a.p, op)
			op.Data = [][]byte{bytes.Clone(op.Data[0])}
			op.Data[0][0] ^= 1
			return op
		}, true},
		{"approval for another signing key", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "other key")
			op = approved(t, h, a.p, op)
			op.Key = otherKey
			return op
		}, true},
		{"approval for another hash", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "other hash")
			op.Approval = rawApproval(t, ecKey.Label, "CKM_ECDSA", crypto.SHA384, op.Data)
			return op
		}, true},
		{"approval for another mechanism", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "other mechanism")
			op.Approval = rawApproval(t, ecKey.Label, "CKM_RSA_PKCS_PSS", crypto.SHA256, op.Data)
			return op
		}, true},
		{"raw approval of the very operation", func(t *testing.T) ports.SignOperation {
			// The control of the two cases above: only the field differs.
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "raw")
			op.Approval = rawApproval(t, ecKey.Label, "CKM_ECDSA", crypto.SHA256, op.Data)
			return op
		}, false},
		{"batch approval", func(t *testing.T) ports.SignOperation {
			return approved(t, h, a.p, batch(ecKey, "one", "two", "three"))
		}, false},
		{"batch with an input swapped", func(t *testing.T) ports.SignOperation {
			op := approved(t, h, a.p, batch(ecKey, "one", "two", "three"))
			op.Data[1] = batch(ecKey, "other").Data[0]
			return op
		}, true},
		{"batch reordered", func(t *testing.T) ports.SignOperation {
			op := approved(t, h, a.p, batch(ecKey, "one", "two", "three"))
			op.Data[0], op.Data[2] = op.Data[2], op.Data[0]
			return op
		}, true},
		{"batch with an input dropped", func(t *testing.T) ports.SignOperation {
			op := approved(t, h, a.p, batch(ecKey, "one", "two", "three"))
			op.Data = op.Data[:2]
			return op
		}, true},
		{"batch with an input added", func(t *testing.T) ports.SignOperation {
			op := approved(t, h, a.p, batch(ecKey, "one", "two"))
			op.Data = append(op.Data, batch(ecKey, "three").Data[0])
			return op
		}, true},
		{"expired", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "expired")
			op.Approval.IssuedAt = t0.Add(-hsm.DefaultApprovalWindow - time.Second)
			return reapprove(t, h, a.p, clk, op)
		}, true},
		{"issued in the future", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "future")
			op.Approval.IssuedAt = t0.Add(6 * time.Second)
			return reapprove(t, h, a.p, clk, op)
		}, true},
		{"issued slightly in the future", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "skew")
			op.Approval.IssuedAt = t0.Add(4 * time.Second)
			return reapprove(t, h, a.p, clk, op)
		}, false},
		{"reused nonce", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "reused")
			op = approved(t, h, a.p, op)
			if _, err := sign1(t.Context(), h, a.p, op); err != nil {
				t.Fatalf("first use: %v", err)
			}
			return op
		}, true},
		{"tampered issue time", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "issue time")
			op = approved(t, h, a.p, op)
			op.Approval.IssuedAt = op.Approval.IssuedAt.Add(time.Nanosecond)
			return op
		}, true},
		{"tampered signature", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "signature")
			op = approved(t, h, a.p, op)
			op.Approval.Signature = bytes.Clone(op.Approval.Signature)
			op.Approval.Signature[len(op.Approval.Signature)-1] ^= 1
			return op
		}, true},
		{"signed by another key, naming the authorization key", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "relabelled")
			ap, err := h.Approve(t.Context(), a.p, otherKey, op)
			if err != nil {
				t.Fatal(err)
			}
			ap.AuthKey = authKey
			op.Approval = ap
			return op
		}, true},
		{"signed by a key that is not the key profile's", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "not the profile's")
			ap, err := h.Approve(t.Context(), a.p, otherKey, op)
			if err != nil {
				t.Fatal(err)
			}
			op.Approval = ap
			return op
		}, true},
		{"signed by the authorization key of another partition", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "other partition")
			return approved(t, h, b.p, op) // same labels, other keys
		}, true},
		{"signing key approving itself", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "self")
			ap := approved(t, h, a.p, op).Approval
			ap.AuthKey = ecKey
			op.Approval = ap
			return op
		}, true},
		{"short nonce", func(t *testing.T) ports.SignOperation {
			op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "short nonce")
			op = approved(t, h, a.p, op)
			op.Approval.Nonce = op.Approval.Nonce[:8]
			return op
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			clk.Set(t0)
			op := c.op(t)
			before := hsm.SignCalls(h)
			sigs, err := h.Sign(t.Context(), a.p, op)
			if !c.refuse {
				is.NoErr(err)
				is.Equal(hsm.SignCalls(h), before+uint64(len(op.Data)))
				return
			}
			is.True(errors.Is(err, ports.ErrApprovalRefused))
			is.Equal(sigs, nil)
			is.Equal(hsm.SignCalls(h), before) // the signing key was not used
		})
	}

	t.Run("expires with the clock", func(t *testing.T) {
		is := is.New(t)
		clk.Set(t0)
		op, _ := operation(rsaKey, ports.MechanismRSAPSS, crypto.SHA256, "late")
		op = approved(t, h, a.p, op)
		clk.Advance(hsm.DefaultApprovalWindow + time.Millisecond)
		_, err := sign1(t.Context(), h, a.p, op)
		is.True(errors.Is(err, ports.ErrApprovalRefused))
	})
}

// reapprove signs op's approval again at op.Approval.IssuedAt (by setting
// the clock), so that the approval is genuine but has that issue time.
func reapprove(t *testing.T, h *hsm.HSM, p ports.Partition, clk *clock, op ports.SignOperation) ports.SignOperation {
	t.Helper()
	now := clk.Now()
	clk.Set(op.Approval.IssuedAt)
	op = approved(t, h, p, op)
	clk.Set(now)
	return op
}

// TestApprovalWithoutProfile checks what Sign accepts when it does not
// know the key profiles (no Options.AuthorizationKey).
func TestApprovalWithoutProfile(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	pt := newPartition(t, "tenant")
	h := hsm.New(hsm.Options{}) // no AuthorizationKey
	op, digest := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "by the other key")
	ap, err := h.Approve(t.Context(), pt.p, otherKey, op)
	is.NoErr(err)
	op.Approval = ap
	sig, err := sign1(t.Context(), h, pt.p, op)
	is.NoErr(err) // any key other than the signing key may approve
	pub, err := h.PublicKey(t.Context(), pt.p, ecKey)
	is.NoErr(err)
	verify(t, pub, op, digest, sig)

	_, err = h.Approve(t.Context(), pt.p, ecKey, op)
	is.True(errors.Is(err, hsm.ErrInvalidOperation)) // but never the signing key itself

	op, _ = operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "by an absent key")
	op = approved(t, h, pt.p, op)
	op.Approval.AuthKey = ports.KeyRef{Label: "no-such-key"}
	_, err = sign1(t.Context(), h, pt.p, op)
	is.True(errors.Is(err, ports.ErrApprovalRefused)) // nor a key the partition does not hold
	is.True(!errors.Is(err, ports.ErrKeyNotFound))
}

func TestApprovalByRSAKey(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	pt := newPartition(t, "tenant")
	h := hsm.New(hsm.Options{})
	op, digest := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "approved by RSA")
	ap, err := h.Approve(t.Context(), pt.p, rsaKey, op)
	is.NoErr(err)
	is.Equal(len(ap.Signature), 256) // PKCS#1 v1.5, RSA-2048
	op.Approval = ap
	sig, err := sign1(t.Context(), h, pt.p, op)
	is.NoErr(err)
	pub, err := h.PublicKey(t.Context(), pt.p, ecKey)
	is.NoErr(err)
	verify(t, pub, op, digest, sig)
}

func TestNonceCapacity(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	pt := newPartition(t, "tenant")
	clk := newClock(t0)
	h := hsm.New(hsm.Options{Clock: clk.Now, NonceCapacity: 2})
	sign := func(msg string) error {
		op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, msg)
		_, err := sign1(t.Context(), h, pt.p, approved(t, h, pt.p, op))
		return err
	}
	is.NoErr(sign("1"))
	is.NoErr(sign("2"))
	err := sign("3")
	is.True(errors.Is(err, ports.ErrApprovalRefused)) // full: a nonce is never forgotten early
	clk.Advance(hsm.DefaultApprovalWindow + time.Second)
	is.NoErr(sign("4")) // the first two have expired
}

func TestErrors(t *testing.T) {
	t.Parallel()
	pt := newPartition(t, "tenant")
	h := hsm.New(hsm.Options{})
	unknownSlot := uint(0xdead)

	cases := []struct {
		name string
		p    ports.Partition
		want error
	}{
		{"unknown token label", with(pt.p, func(p *ports.Partition) { p.TokenLabel = "no-such-token" }), ports.ErrHSMUnavailable},
		{"unknown slot ID", with(pt.p, func(p *ports.Partition) { p.Slot, p.TokenLabel = &unknownSlot, "" }), ports.ErrHSMUnavailable},
		{"slot of another token", with(pt.p, func(p *ports.Partition) { s := pt.tok.Slot(); p.Slot, p.TokenLabel = &s, "other-label" }), ports.ErrHSMUnavailable},
		{"no token", with(pt.p, func(p *ports.Partition) { p.TokenLabel = "" }), ports.ErrHSMUnavailable},
		{"unknown module", with(pt.p, func(p *ports.Partition) { p.Module = "/nonexistent/libpkcs11.so" }), ports.ErrHSMUnavailable},
		{"security officer", with(pt.p, func(p *ports.Partition) { p.User = "so"; p.PIN = pt.tok.SOPIN() }), ports.ErrHSMUnavailable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			_, err := h.PublicKey(t.Context(), c.p, ecKey)
			is.True(errors.Is(err, c.want))
		})
	}

	t.Run("unknown signing key", func(t *testing.T) {
		is := is.New(t)
		op, _ := operation(ports.KeyRef{Label: "no-such-key"}, ports.MechanismECDSA, crypto.SHA256, "unknown")
		_, err := sign1(t.Context(), h, pt.p, approved(t, h, pt.p, op))
		is.True(errors.Is(err, ports.ErrKeyNotFound))
	})

	t.Run("invalid operations", func(t *testing.T) {
		sha224 := sha256.Sum224([]byte("x"))
		digest := sha256.Sum256([]byte("x"))
		ops := []struct {
			name string
			op   ports.SignOperation
		}{
			{"no mechanism", ports.SignOperation{Key: rsaKey, Hash: crypto.SHA256, Data: [][]byte{digest[:]}}},
			{"raw RSA: PKCS#1 over a bare digest", ports.SignOperation{Key: rsaKey, Mechanism: ports.MechanismRSAPKCS1, Hash: crypto.SHA256, Data: [][]byte{digest[:]}}},
			{"PKCS#1 DigestInfo of another hash", ports.SignOperation{Key: rsaKey, Mechanism: ports.MechanismRSAPKCS1, Hash: crypto.SHA384, Data: [][]byte{append(bytes.Clone(digestInfoPrefix[crypto.SHA256]), digest[:]...)}}},
			{"weak hash", ports.SignOperation{Key: ecKey, Mechanism: ports.MechanismECDSA, Hash: crypto.SHA224, Data: [][]byte{sha224[:]}}},
			{"digest of the wrong size", ports.SignOperation{Key: ecKey, Mechanism: ports.MechanismECDSA, Hash: crypto.SHA384, Data: [][]byte{digest[:]}}},
			{"no key", ports.SignOperation{Mechanism: ports.MechanismECDSA, Hash: crypto.SHA256, Data: [][]byte{digest[:]}}},
		}
		for _, c := range ops {
			t.Run(c.name, func(t *testing.T) {
				is := is.New(t)
				_, err := h.Approve(t.Context(), pt.p, authKey, c.op)
				is.True(errors.Is(err, hsm.ErrInvalidOperation))
				_, err = sign1(t.Context(), h, pt.p, c.op)
				is.True(errors.Is(err, hsm.ErrInvalidOperation))
			})
		}
	})

	t.Run("mechanism does not fit the key", func(t *testing.T) {
		is := is.New(t)
		op, _ := operation(rsaKey, ports.MechanismECDSA, crypto.SHA256, "ECDSA with RSA")
		before := hsm.SignCalls(h)
		_, err := sign1(t.Context(), h, pt.p, approved(t, h, pt.p, op))
		is.True(errors.Is(err, hsm.ErrInvalidOperation))
		is.Equal(hsm.SignCalls(h), before)
	})

	// Last: it logs the fixture's session out. PKCS#11 logins are per
	// application, so C_Login would not look at the PIN while that session
	// is logged in.
	t.Run("wrong PIN", func(t *testing.T) {
		is := is.New(t)
		is.NoErr(pt.tok.Ctx().Logout(pt.tok.Session()))
		h := hsm.New(hsm.Options{})
		wrong := with(pt.p, func(p *ports.Partition) { p.PIN = "wrong-pin-000000" })
		for range 2 { // the second time without asking the token
			_, err := h.PublicKey(t.Context(), wrong, ecKey)
			is.True(errors.Is(err, ports.ErrHSMUnavailable))
			is.True(strings.Contains(err.Error(), "PIN was refused"))
			is.True(!strings.Contains(err.Error(), wrong.PIN))
		}
		op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "right PIN")
		_, err := sign1(t.Context(), h, pt.p, approved(t, h, pt.p, op))
		is.NoErr(err) // the right PIN works, with the same HSM
	})
}

// with returns p changed by f.
func with(p ports.Partition, f func(*ports.Partition)) ports.Partition {
	f(&p)
	return p
}

func TestSessionRecovery(t *testing.T) {
	t.Parallel()
	disruptions := []struct {
		name    string
		disrupt func(*softhsm.Token) error
	}{
		{"C_CloseAllSessions", func(tok *softhsm.Token) error { return tok.Ctx().CloseAllSessions(tok.Slot()) }},
		{"C_Logout", func(tok *softhsm.Token) error { return tok.Ctx().Logout(tok.Session()) }},
	}
	for _, d := range disruptions {
		for _, approveFirst := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/approved before: %v", d.name, approveFirst), func(t *testing.T) {
				t.Parallel()
				is := is.New(t)
				pt := newPartition(t, "tenant")
				h := hsm.New(hsm.Options{})
				for _, key := range []ports.KeyRef{rsaKey, ecKey} {
					// Warm the pool: sessions, login and cached handles.
					mech := ports.MechanismRSAPSS
					if key.Label == ecKey.Label {
						mech = ports.MechanismECDSA
					}
					op, _ := operation(key, mech, crypto.SHA256, "before")
					_, err := sign1(t.Context(), h, pt.p, approved(t, h, pt.p, op))
					is.NoErr(err)

					op, digest := operation(key, mech, crypto.SHA256, "after")
					if approveFirst {
						op = approved(t, h, pt.p, op)
					}
					resets := hsm.Resets(h, pt.p)
					is.NoErr(d.disrupt(pt.tok))
					if !approveFirst {
						op = approved(t, h, pt.p, op)
					}
					sig, err := sign1(t.Context(), h, pt.p, op)
					is.NoErr(err)
					is.Equal(hsm.Resets(h, pt.p), resets+1) // recovered, once
					pub, err := h.PublicKey(t.Context(), pt.p, key)
					is.NoErr(err)
					verify(t, pub, op, digest, sig)
				}
			})
		}
	}

	t.Run("one retry only", func(t *testing.T) {
		t.Parallel()
		pt := newPartition(t, "tenant")
		for _, c := range []struct {
			name     string
			failures int32
			want     error
		}{
			{"recovers from one loss", 1, nil},
			{"fails on the second", 2, ports.ErrHSMUnavailable},
		} {
			t.Run(c.name, func(t *testing.T) {
				is := is.New(t)
				h := hsm.New(hsm.Options{})
				var calls atomic.Int32
				hsm.SetBeforeSign(h, func() error {
					if calls.Add(1) <= c.failures {
						return pkcs11.Error(pkcs11.CKR_DEVICE_REMOVED)
					}
					return nil
				})
				op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, c.name)
				_, err := sign1(t.Context(), h, pt.p, approved(t, h, pt.p, op))
				if c.want == nil {
					is.NoErr(err)
				} else {
					is.True(errors.Is(err, c.want))
				}
				is.Equal(calls.Load(), int32(2))
			})
		}
	})
}

func TestConcurrentSign(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	parts := []partition{newPartition(t, "tenant-a"), newPartition(t, "tenant-b")}
	const maxSessions, workers, perWorker = 4, 16, 6
	h := hsm.New(hsm.Options{MaxSessions: maxSessions})

	pubs := map[string]map[string]crypto.PublicKey{}
	for _, pt := range parts {
		pubs[pt.p.Tenant] = map[string]crypto.PublicKey{}
		for _, key := range []ports.KeyRef{rsaKey, ecKey} {
			pub, err := h.PublicKey(t.Context(), pt.p, key)
			is.NoErr(err)
			pubs[pt.p.Tenant][key.Label] = pub
		}
	}

	var wg sync.WaitGroup
	errs := make(chan error, workers*perWorker)
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				pt := parts[(w+i)%len(parts)]
				key, mech := rsaKey, ports.MechanismRSAPKCS1
				switch (w + i) % 3 {
				case 1:
					mech = ports.MechanismRSAPSS
				case 2:
					key, mech = ecKey, ports.MechanismECDSA
				}
				op, digest := operation(key, mech, crypto.SHA256, fmt.Sprintf("worker %d, document %d", w, i))
				a, err := h.Approve(t.Context(), pt.p, authKey, op)
				if err != nil {
					errs <- fmt.Errorf("approve: %w", err)
					continue
				}
				op.Approval = a
				sig, err := sign1(t.Context(), h, pt.p, op)
				if err != nil {
					errs <- fmt.Errorf("sign: %w", err)
					continue
				}
				if err := verifySignature(pubs[pt.p.Tenant][key.Label], op, digest, sig); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	is.Equal(hsm.SignCalls(h), uint64(workers*perWorker))
	for _, pt := range parts {
		open, idle := hsm.Sessions(h, pt.p)
		is.True(open <= maxSessions)
		is.Equal(idle, open) // all came back
	}
}

// TestIndependentSignaturesRunInParallel makes each signature slow and
// checks that MaxSessions of them take about as long as one.
func TestIndependentSignaturesRunInParallel(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	pt := newPartition(t, "tenant")
	const n, delay = 4, 300 * time.Millisecond
	h := hsm.New(hsm.Options{MaxSessions: n})
	var slow atomic.Bool
	hsm.SetBeforeSign(h, func() error {
		if slow.Load() {
			time.Sleep(delay)
		}
		return nil
	})
	ops := make([]ports.SignOperation, n)
	for i := range ops {
		op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, fmt.Sprint(i))
		ops[i] = approved(t, h, pt.p, op)
	}

	slow.Store(true)
	start := time.Now()
	var wg sync.WaitGroup
	for _, op := range ops {
		wg.Go(func() {
			if _, err := sign1(t.Context(), h, pt.p, op); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	is.True(elapsed < 2*delay) // serialised, it would take n*delay
	t.Logf("%d signatures of %v each took %v", n, delay, elapsed)
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	pt := newPartition(t, "tenant")

	t.Run("all sessions busy", func(t *testing.T) {
		is := is.New(t)
		h := hsm.New(hsm.Options{MaxSessions: 1, Timeout: 100 * time.Millisecond})
		op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "warm")
		_, err := sign1(t.Context(), h, pt.p, approved(t, h, pt.p, op)) // caches the authorization key
		is.NoErr(err)

		op, _ = operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "busy")
		op = approved(t, h, pt.p, op)
		release, err := hsm.HoldSession(t.Context(), h, pt.p)
		is.NoErr(err)
		start := time.Now()
		before := hsm.SignCalls(h)
		_, err = sign1(t.Context(), h, pt.p, op)
		is.True(errors.Is(err, ports.ErrHSMTimeout))
		is.True(errors.Is(err, context.DeadlineExceeded))
		is.True(time.Since(start) < time.Second)
		is.Equal(hsm.SignCalls(h), before)
		release()

		op, _ = operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "free again")
		_, err = sign1(t.Context(), h, pt.p, approved(t, h, pt.p, op))
		is.NoErr(err)
	})

	t.Run("context deadline before Timeout", func(t *testing.T) {
		is := is.New(t)
		h := hsm.New(hsm.Options{MaxSessions: 1}) // DefaultTimeout
		op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "deadline")
		op = approved(t, h, pt.p, op)
		release, err := hsm.HoldSession(t.Context(), h, pt.p)
		is.NoErr(err)
		defer release()
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		_, err = sign1(ctx, h, pt.p, op)
		is.True(errors.Is(err, ports.ErrHSMTimeout))
	})

	t.Run("cancelled is not a timeout", func(t *testing.T) {
		is := is.New(t)
		h := hsm.New(hsm.Options{MaxSessions: 1})
		op, _ := operation(ecKey, ports.MechanismECDSA, crypto.SHA256, "cancelled")
		op = approved(t, h, pt.p, op)
		release, err := hsm.HoldSession(t.Context(), h, pt.p)
		is.NoErr(err)
		defer release()
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(50*time.Millisecond, cancel)
		_, err = sign1(ctx, h, pt.p, op)
		is.True(errors.Is(err, context.Canceled))
		is.True(!errors.Is(err, ports.ErrHSMTimeout))
	})

	t.Run("slow C_Sign", func(t *testing.T) {
		is := is.New(t)
		h := hsm.New(hsm.Options{MaxSessions: 1, Timeout: 300 * time.Millisecond})
		var slow atomic.Bool
		hsm.SetBeforeSign(h, func() error {
			if slow.Load() {
				time.Sleep(2 * time.Second)
			}
			return nil
		})
		op, _ := operation(rsaKey, ports.MechanismRSAPKCS1, crypto.SHA256, "slow")
		op = approved(t, h, pt.p, op)

		slow.Store(true)
		start := time.Now()
		sig, err := sign1(t.Context(), h, pt.p, op)
		is.True(errors.Is(err, ports.ErrHSMTimeout))
		is.Equal(sig, nil)
		is.True(time.Since(start) < 1500*time.Millisecond) // the caller did not wait for the device
		slow.Store(false)

		// The call finishes in the background and gives the session back.
		deadline := time.Now().Add(10 * time.Second)
		for {
			open, idle := hsm.Sessions(h, pt.p)
			if open == 1 && idle == 1 && hsm.SignCalls(h) == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("session not returned: %d open, %d idle, %d C_Sign", open, idle, hsm.SignCalls(h))
			}
			time.Sleep(10 * time.Millisecond)
		}
		op, _ = operation(rsaKey, ports.MechanismRSAPKCS1, crypto.SHA256, "fast again")
		_, err = sign1(t.Context(), h, pt.p, approved(t, h, pt.p, op))
		is.NoErr(err)
	})
}

// sign1 signs an operation of one input and returns its signature.
func sign1(ctx context.Context, h *hsm.HSM, p ports.Partition, op ports.SignOperation) ([]byte, error) {
	sigs, err := h.Sign(ctx, p, op)
	if err != nil {
		return nil, err
	}
	return sigs[0], nil
}

// batch is an ECDSA SHA-256 operation over the digests of msgs.
func batch(key ports.KeyRef, msgs ...string) ports.SignOperation {
	op, _ := operation(key, ports.MechanismECDSA, crypto.SHA256, msgs[0])
	op.Data = nil
	for _, m := range msgs {
		d := sha256.Sum256([]byte(m))
		op.Data = append(op.Data, d[:])
	}
	return op
}

// A batch is signed as a whole, in order: each signature verifies over
// its own input.
func TestSignBatch(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	pt := newPartition(t, "batch")
	h := hsm.New(hsm.Options{MaxSessions: 3})
	msgs := []string{"a", "b", "c", "d", "e", "f", "g"}
	op := approved(t, h, pt.p, batch(ecKey, msgs...))
	sigs, err := h.Sign(t.Context(), pt.p, op)
	is.NoErr(err)
	is.Equal(len(sigs), len(msgs))
	pub, err := h.PublicKey(t.Context(), pt.p, ecKey)
	is.NoErr(err)
	for i, m := range msgs {
		d := sha256.Sum256([]byte(m))
		one := op
		one.Data = [][]byte{d[:]}
		verify(t, pub, one, d[:], sigs[i])
	}
	// The approval was spent by the batch.
	_, err = h.Sign(t.Context(), pt.p, op)
	is.True(errors.Is(err, ports.ErrApprovalRefused))

	for _, n := range []int{0, hsm.MaxBatch + 1} {
		op := batch(ecKey, "x")
		op.Data = slices.Repeat(op.Data, n)
		_, err := h.Approve(t.Context(), pt.p, authKey, op)
		is.True(errors.Is(err, hsm.ErrInvalidOperation))
		_, err = h.Sign(t.Context(), pt.p, op)
		is.True(errors.Is(err, hsm.ErrInvalidOperation))
	}
}

// A device error on one input fails the whole batch with that error.
func TestSignBatchDeviceError(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	pt := newPartition(t, "batch-error")
	h := hsm.New(hsm.Options{MaxSessions: 2})
	var calls atomic.Int32
	hsm.SetBeforeSign(h, func() error {
		if calls.Add(1) == 3 {
			return errors.New("CKR_DEVICE_ERROR")
		}
		return nil
	})
	_, err := h.Sign(t.Context(), pt.p, approved(t, h, pt.p, batch(ecKey, "a", "b", "c", "d", "e", "f")))
	is.True(errors.Is(err, ports.ErrHSMUnavailable))
	is.True(strings.Contains(err.Error(), "CKR_DEVICE_ERROR"))
}

// TestSessionsReported: the sessions of a partition, busy and idle, as
// the metrics read them.
func TestSessionsReported(t *testing.T) {
	is := is.New(t)
	pt := newPartition(t, "tenant-sessions")
	h := hsm.New(hsm.Options{})
	is.Equal(len(h.Sessions()), 0) // no partition used yet
	release, err := hsm.HoldSession(t.Context(), h, pt.p)
	is.NoErr(err)
	is.Equal(h.Sessions(), []hsm.PartitionSessions{{Partition: pt.p.TokenLabel, Open: 1, InUse: 1}})
	release()
	is.Equal(h.Sessions(), []hsm.PartitionSessions{{Partition: pt.p.TokenLabel, Open: 1, InUse: 0}})
	release, err = hsm.HoldSession(t.Context(), h, pt.bySlot())
	is.NoErr(err)
	defer release()
	is.Equal(h.Sessions(), []hsm.PartitionSessions{ // by name: "slot N" before "svcdss-..."
		{Partition: fmt.Sprintf("slot %d", pt.tok.Slot()), Open: 1, InUse: 1},
		{Partition: pt.p.TokenLabel, Open: 1, InUse: 0},
	})
}
