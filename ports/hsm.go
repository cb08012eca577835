package ports

import (
	"context"
	"crypto"
	"errors"
	"time"
)

// Errors of an HSM. A server maps ErrHSMUnavailable and ErrHSMTimeout to
// 502; ErrKeyNotFound and ErrApprovalRefused are configuration or
// authorization failures of the tenant's partition.
var (
	// ErrHSMUnavailable: the module does not load, the token is absent,
	// the login fails, or an operation fails in the device.
	ErrHSMUnavailable = errors.New("hsm: unavailable")
	// ErrHSMTimeout: the operation did not finish in time.
	ErrHSMTimeout = errors.New("hsm: timed out")
	// ErrKeyNotFound: the partition holds no such key.
	ErrKeyNotFound = errors.New("hsm: key not found")
	// ErrApprovalRefused: the SKA approval does not authorise this
	// operation (wrong key, other bytes, expired, used before, bad
	// signature); the signing key was not used.
	ErrApprovalRefused = errors.New("hsm: approval refused")
)

// A Partition is a tenant's HSM partition, resolved per request from the
// control database (signing-server.md §1): never from configuration.
type Partition struct {
	Tenant string
	// Type is the partition type; the signer accepts only its fixed one.
	Type string
	// Module is the PKCS#11 library to load.
	Module string
	// Slot is the slot ID, or nil to find the token by TokenLabel.
	Slot       *uint
	TokenLabel string
	// User is the user to log in as ("" or "user": CKU_USER).
	User string
	// PIN is the resolved PIN. It is never logged.
	PIN string
}

// A KeyRef names a key of the partition: CKA_LABEL, and CKA_ID when set.
type KeyRef struct {
	Label string
	ID    []byte
}

// Mechanism is the signing mechanism handed to the token. There is no
// raw RSA: PKCS#1 v1.5 signs a DigestInfo the signer built.
type Mechanism uint8

const (
	_ Mechanism = iota
	// MechanismRSAPKCS1 is CKM_RSA_PKCS over a DER DigestInfo.
	MechanismRSAPKCS1
	// MechanismRSAPSS is CKM_RSA_PKCS_PSS over the digest, with the
	// parameters pinned: MGF1 on the same hash, salt length = hash length.
	MechanismRSAPSS
	// MechanismECDSA is CKM_ECDSA over the digest; the token returns r||s.
	MechanismECDSA
)

// SignOperation is one signing operation on the token.
type SignOperation struct {
	Key       KeyRef
	Mechanism Mechanism
	// Hash is the digest's hash (PSS parameters, and what the approval
	// names).
	Hash crypto.Hash
	// Data are exactly the bytes handed to the token, one signature
	// each: the DigestInfo for PKCS#1 v1.5, the digest otherwise. The
	// batch shares one approval, as CSC signHash signs several hashes
	// under one authorization.
	Data [][]byte
	// Approval is the SKA authorization of this operation.
	Approval Approval
}

// An Approval is a Smart Key Attributes authorization: a signature by the
// key profile's authorization key over exactly this operation
// (ApprovalPayload), checked before the signing key is used.
type Approval struct {
	// AuthKey names the authorization key in the partition.
	AuthKey KeyRef
	// IssuedAt and Nonce bind the approval to a time and make it
	// single-use.
	IssuedAt time.Time
	Nonce    []byte
	// Signature is the authorization key's signature over
	// ApprovalPayload (ECDSA DER over its SHA-256, or PKCS#1 v1.5).
	Signature []byte
}

// An HSM signs with keys of a tenant's partition. Implementations keep
// sessions and key handles per partition and are safe for concurrent use.
type HSM interface {
	// PublicKey returns the public key of key in p.
	PublicKey(ctx context.Context, p Partition, key KeyRef) (crypto.PublicKey, error)
	// Approve produces the SKA approval of op with the authorization key
	// authKey of p (the key profile's authorization key).
	Approve(ctx context.Context, p Partition, authKey KeyRef, op SignOperation) (Approval, error)
	// Sign checks op.Approval, then signs each of op.Data with op.Key and
	// returns the signatures in the same order. A refused approval is
	// ErrApprovalRefused and the signing key is not used.
	Sign(ctx context.Context, p Partition, op SignOperation) ([][]byte, error)
}

// A ReplayStore remembers single-use identifiers (a JWT's jti) until they
// expire. Use reports false when id was used before.
type ReplayStore interface {
	Use(ctx context.Context, id string, until time.Time) (bool, error)
}
