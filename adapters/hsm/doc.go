// Package hsm implements [ports.HSM] over PKCS#11 modules, through
// github.com/miekg/pkcs11.
//
// [New] returns an [HSM] that signs with the keys of a tenant's partition
// ([ports.Partition]: a module, a token found by slot ID or label, a user
// and a PIN), after checking the operation's Smart Key Attributes
// approval. It is safe for concurrent use.
//
// # Modules, partitions and sessions
//
// A PKCS#11 library has one state per process: C_Initialize succeeds once,
// logins belong to the application rather than to a session, and a
// C_Finalize from anyone ends every session in the process. So each
// library path is loaded and initialised once per process, an
// initialisation by someone else (CKR_CRYPTOKI_ALREADY_INITIALIZED) is
// accepted, and the library is never finalised.
//
// Each partition (module, slot or token label, user) gets a pool. The pool
// finds the slot, logs in once as CKU_USER (CKR_USER_ALREADY_LOGGED_IN is
// success), and keeps up to [Options.MaxSessions] read-only sessions that
// concurrent callers take from a channel of idle sessions, so independent
// signatures run in parallel on the device. Key handles are cached by
// (class, label, ID): looking keys up per request is what makes HSM
// signers slow (reference A.6 item 9).
//
// When an operation fails because the session or the login was lost
// (CKR_USER_NOT_LOGGED_IN, CKR_SESSION_HANDLE_INVALID, CKR_SESSION_CLOSED,
// CKR_DEVICE_REMOVED, CKR_TOKEN_NOT_PRESENT, CKR_SLOT_ID_INVALID, or a
// cached handle that became invalid), the pool drops its sessions and
// handles, opens a new session, logs in again and retries once; a second
// failure is [ports.ErrHSMUnavailable].
//
// A wrong PIN is [ports.ErrHSMUnavailable]. The PIN is never logged or put
// in an error. The pool remembers that the PIN was refused and does not
// try it again, since HSMs lock a user after a few wrong PINs; a partition
// with another PIN gets a new pool. PKCS#11 cannot check a PIN while the
// application is already logged in to the token (C_Login then answers
// CKR_USER_ALREADY_LOGGED_IN before looking at it), so a wrong PIN is only
// noticed when this process holds no other login on that token.
//
// Errors name the partition's token (its label or slot) and the module's
// library path, and a missing key by its label: they are for the
// operator's log. They are not for the caller whose request named the
// key, who must not learn where the HSM is: a server answers in its own
// fixed words, branching on [ports.ErrKeyNotFound] and
// [ports.ErrHSMUnavailable] (the signer: docs/decisions/0023, Details).
//
// # Smart Key Attributes
//
// A Securosys Primus key with Smart Key Attributes (SKA) carries a policy
// that the HSM enforces in hardware: the policy is fixed when the key is
// created (not modifiable without the modify rule's own quorum); its use
// rule names approver public keys in groups with a quorum (N of M); each
// use needs approval tokens, signatures by the approvers over the
// operation and its payload, which the HSM verifies inside the device
// before it uses the key; and a token may carry a timelock (minimum delay)
// and a timeout (maximum age) checked against the HSM's own clock.
//
// SoftHSM2, and plain PKCS#11, cannot enforce any of that. This package
// therefore enforces, in software and before the signing key is used, the
// policy of a Primus key whose use rule requires one approval from the key
// profile's authorization key, with a timeout:
//
//   - [HSM.Approve] signs [signing.ApprovalPayload] of the operation (the
//     signing key's label and ID, the mechanism name, the hash, exactly the
//     bytes handed to the token for each signature of the batch, in order,
//     the issue time and a fresh 16-byte random nonce) with the authorization key, in the same partition: ECDSA over
//     the payload's SHA-256, DER-encoded, for an EC key; PKCS#1 v1.5 over a
//     SHA-256 DigestInfo for an RSA key.
//   - [HSM.Sign] refuses with [ports.ErrApprovalRefused], without calling
//     C_Sign with the signing key, unless: the approval names an
//     authorization key other than the signing key (and the key profile's
//     one, when [Options.AuthorizationKey] is set) that is in the
//     partition; its signature verifies, with the authorization key's
//     public key read from the token, over the payload of this very
//     operation, so other bytes, another key, mechanism or hash fail; it
//     was issued at most [Options.ApprovalWindow] ago and at most 5 s in
//     the future; and its nonce was not used before. Used nonces are kept
//     until their approval's window has passed, in a bounded store; when it
//     is full, approvals are refused rather than nonces forgotten.
//
// The mechanism names in the payload are "CKM_RSA_PKCS", "CKM_RSA_PKCS_PSS"
// and "CKM_ECDSA".
//
// The checks are the same as the HSM's, but they run in this process, and
// the authorization key sits in the same partition, reachable with the
// same PIN: whoever controls the process can approve anything, so the
// enforcement is only as strong as the process (reference A.5 (d)). What
// it does give is that the authorization key and the signing key are
// different keys, that every signature was approved for exactly its bytes,
// and that a captured approval cannot be used twice or late. Moving to a
// hardware-enforced policy means creating the signing key with the SKA
// policy on the HSM and handing the approvals to it instead of checking
// them here.
//
// # Timeouts
//
// Every operation runs under the earlier of the context's deadline and
// [Options.Timeout], including the wait for a free session; missing it is
// [ports.ErrHSMTimeout]. A PKCS#11 call cannot be interrupted, so the
// calls run in a goroutine and the caller returns at the deadline; the
// goroutine finishes the call (a signature made then is discarded) and
// puts its session back in the pool afterwards. A wedged device thus ties
// up at most MaxSessions goroutines and sessions per partition, never the
// callers.
//
// # Batches
//
// One operation carries 1 to [MaxBatch] inputs under one approval. Sign
// checks the approval once, then signs the inputs side by side, each on a
// session of the pool (so a batch of 16 on a pool of 8 keeps 8 of the
// device's engines busy), and returns the signatures in input order. Any
// input failing fails the batch; no signature of it is returned.
//
// # Mechanisms
//
// Only [ports.MechanismRSAPKCS1] (CKM_RSA_PKCS over a DER DigestInfo, which
// is checked), [ports.MechanismRSAPSS] (CKM_RSA_PKCS_PSS with MGF1 on the
// same hash and a salt as long as the hash) and [ports.MechanismECDSA]
// (CKM_ECDSA, returning r||s) are accepted, with SHA-256, SHA-384 or
// SHA-512. There is no raw RSA. Other operations are [ErrInvalidOperation].
//
// # Non-goals
//
// The package does not create or import keys, does not set SKA policies on
// an HSM, does not verify the signatures it returns (the caller
// self-verifies, reference A.6 item 2), and its nonce store is per process:
// several replicas need a shared [ports.ReplayStore] in
// [Options.Nonces].
package hsm
