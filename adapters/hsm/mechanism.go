package hsm

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"

	"github.com/miekg/pkcs11"

	"github.com/svc-dss/dss/ports"
)

// ErrInvalidOperation: the operation is not one the adapter performs (an
// unknown or raw mechanism, a hash other than SHA-256/384/512, data that
// is not a digest or DigestInfo of the hash, a mechanism that does not fit
// the key). It is a caller's bug, not a device failure.
var ErrInvalidOperation = errors.New("hsm: invalid operation")

// digestInfoPrefixes are the DER prefixes of a PKCS#1 v1.5 DigestInfo
// (RFC 8017, section 9.2, note 1); the digest follows.
var digestInfoPrefixes = map[crypto.Hash][]byte{
	crypto.SHA256: {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20},
	crypto.SHA384: {0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30},
	crypto.SHA512: {0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40},
}

// pssHashes are the PSS hash and MGF1 parameters per hash.
var pssHashes = map[crypto.Hash]struct{ hashAlg, mgf uint }{
	crypto.SHA256: {pkcs11.CKM_SHA256, pkcs11.CKG_MGF1_SHA256},
	crypto.SHA384: {pkcs11.CKM_SHA384, pkcs11.CKG_MGF1_SHA384},
	crypto.SHA512: {pkcs11.CKM_SHA512, pkcs11.CKG_MGF1_SHA512},
}

// mechanismName is the mechanism's name in an approval payload: the
// PKCS#11 name of what the token runs.
func mechanismName(m ports.Mechanism) string {
	switch m {
	case ports.MechanismRSAPKCS1:
		return "CKM_RSA_PKCS"
	case ports.MechanismRSAPSS:
		return "CKM_RSA_PKCS_PSS"
	case ports.MechanismECDSA:
		return "CKM_ECDSA"
	default:
		return ""
	}
}

// A plan is a checked operation: the PKCS#11 mechanism to run and the key
// type it needs.
type plan struct {
	mechanism *pkcs11.Mechanism
	keyType   uint
}

// planFor checks op (key, mechanism, hash and the shape of the data) and
// returns what to hand the token. It does not look at the approval.
func planFor(op ports.SignOperation) (plan, error) {
	if op.Key.Label == "" {
		return plan{}, fmt.Errorf("%w: no signing key label", ErrInvalidOperation)
	}
	if _, ok := digestInfoPrefixes[op.Hash]; !ok {
		// Only hashes as strong as SHA-256 (reference A.1).
		return plan{}, fmt.Errorf("%w: hash %v not accepted", ErrInvalidOperation, op.Hash)
	}
	if len(op.Data) == 0 || len(op.Data) > MaxBatch {
		return plan{}, fmt.Errorf("%w: %d inputs to sign, not 1 to %d", ErrInvalidOperation, len(op.Data), MaxBatch)
	}
	var p plan
	switch op.Mechanism {
	case ports.MechanismRSAPKCS1:
		p = plan{pkcs11.NewMechanism(pkcs11.CKM_RSA_PKCS, nil), pkcs11.CKK_RSA}
	case ports.MechanismRSAPSS:
		h := pssHashes[op.Hash]
		params := pkcs11.NewPSSParams(h.hashAlg, h.mgf, uint(op.Hash.Size()))
		p = plan{pkcs11.NewMechanism(pkcs11.CKM_RSA_PKCS_PSS, params), pkcs11.CKK_RSA}
	case ports.MechanismECDSA:
		p = plan{pkcs11.NewMechanism(pkcs11.CKM_ECDSA, nil), pkcs11.CKK_EC}
	default:
		return plan{}, fmt.Errorf("%w: mechanism %d not accepted", ErrInvalidOperation, op.Mechanism)
	}
	for i, d := range op.Data {
		if err := checkInput(op.Mechanism, op.Hash, d); err != nil {
			return plan{}, fmt.Errorf("%w: input %d: %w", ErrInvalidOperation, i, err)
		}
	}
	return p, nil
}

// checkInput checks one input of a mechanism: a DigestInfo of the hash
// for CKM_RSA_PKCS (which pads and signs whatever it gets: anything else
// would be a raw RSA signature), a digest of the hash otherwise.
func checkInput(m ports.Mechanism, hash crypto.Hash, data []byte) error {
	if m == ports.MechanismRSAPKCS1 {
		prefix := digestInfoPrefixes[hash]
		if len(data) != len(prefix)+hash.Size() || !bytes.HasPrefix(data, prefix) {
			return fmt.Errorf("CKM_RSA_PKCS data is not a %v DigestInfo", hash)
		}
		return nil
	}
	if len(data) != hash.Size() {
		return fmt.Errorf("%s data is %d bytes, not a %v digest", mechanismName(m), len(data), hash)
	}
	return nil
}

// keyTypeName names a CKK_ value in errors.
func keyTypeName(t uint) string {
	switch t {
	case pkcs11.CKK_RSA:
		return "RSA"
	case pkcs11.CKK_EC:
		return "EC"
	default:
		return fmt.Sprintf("key type %#x", t)
	}
}
