package signer

import (
	"context"
	"crypto"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/signing"
	"github.com/svc-dss/dss/ports"
)

// The outcomes of Sign a server turns into statuses (signing-server.md
// §7): 401, 403, 400, 502. ErrNoControlDatabase is the 503. The errors of
// the first three are [*RefusalError]s.
var (
	ErrSignUnauthenticated = errors.New("app: the signing request is not authenticated")
	ErrSignForbidden       = errors.New("app: the signing request is not authorized")
	ErrSignBadRequest      = errors.New("app: the signing request cannot be signed")
	ErrSignUnavailable     = errors.New("app: the control database or the HSM failed")
	// ErrReplayUnavailable is an ErrSignUnavailable of the store of used
	// token IDs: a token that cannot be recorded as used is refused
	// (fail closed), never signed for.
	ErrReplayUnavailable = errors.New("app: the store of used token IDs failed")
)

// A RefusalError is a request the signer refuses for what the caller sent
// or is: a 400, 401 or 403. The server shows Detail and nothing else of
// it (signing-server.md §7; docs/decisions/0023).
type RefusalError struct {
	// Kind is ErrSignBadRequest, ErrSignUnauthenticated, ErrSignForbidden
	// or ErrUnauthenticated.
	Kind error
	// Reason names the check that refused, in one stable word the
	// metrics count refusals by: token, identity, license, permission,
	// partition, key, request. Empty outside sign-ska.
	Reason string
	// Detail says what the caller did wrong, in fixed words. It never
	// names an internal path, label, slot or host, and holds nothing read
	// from a token before its signature verified.
	Detail string
	// Err, when not nil, is the rest of the story, for the log: it may
	// name the HSM's library and token, or the kid a token claimed.
	Err error
}

func (e *RefusalError) Error() string {
	if e.Err == nil {
		return e.Kind.Error() + ": " + e.Detail
	}
	return e.Kind.Error() + ": " + e.Detail + ": " + e.Err.Error()
}

func (e *RefusalError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// The details of a refused keyLabel.
const (
	detailNoKey         = "keyLabel names no signing key of the tenant's partition"
	detailNoApprovalKey = `keyLabel's key profile has no authorization key (keyLabel + "-ska") in the tenant's partition`
)

// PartitionType is the one partition type the signer signs on: a PKCS#11
// partition whose signing keys are used under SKA approvals
// (signing-server.md §1 item 2; docs/decisions/0023).
const PartitionType = "pkcs11-ska"

// FeatureSigner and PermissionSign gate every signature (§5 item 3).
const (
	FeatureSigner  = "dss"
	PermissionSign = "dss.sign"
)

// approvalSuffix names a signing key's authorization key: the key profile
// "sign-p256" signs under approvals of "sign-p256-ska".
const approvalSuffix = "-ska"

// SignResult is what a signature request returns.
type SignResult struct {
	KeyLabel           string                 `json:"keyLabel"`
	PublicKeySHA256    string                 `json:"publicKeySha256"`
	HashAlgorithm      string                 `json:"hashAlgorithm"`
	SignatureAlgorithm string                 `json:"signatureAlgorithm"`
	AlgorithmOID       string                 `json:"signatureAlgorithmOid"`
	PSS                *signing.PSSParameters `json:"pss,omitempty"`
	ECDSAEncoding      signing.Encoding       `json:"ecdsaEncoding,omitempty"`
	Signatures         [][]byte               `json:"signatures"`
	Identity           ports.Caller           `json:"-"`
}

// signFlow is the signing machinery, present when a control database is:
// the caller's token verified with the key it registered, its licence,
// permission and partition, all read through the control-data ports.
type signFlow struct {
	tokens      ports.SignTokenVerifier
	licenses    ports.Licenses
	permissions ports.Permissions
	partitions  ports.Partitions
	hsm         ports.HSM
}

// Sign runs one sign-ska call: the proxy's JWT over the exact body, the
// body's tenant and module against it, the dss license and dss.sign
// permission, the tenant's partition, then the digests signed under one
// fresh SKA approval, each verified before it is returned. The whole of it
// is bounded by svc.dss.signing.timeout-seconds.
//
// Every call that reaches the flow leaves one audit record in the log
// (reference A.6 item 8): see audit.
func (s *Signer) Sign(ctx context.Context, authorization string, body []byte) (SignResult, error) {
	if s.flow == nil {
		return SignResult{}, ErrNoControlDatabase
	}
	var rec auditRecord
	began := time.Now()
	res, err := s.sign(ctx, authorization, body, &rec)
	s.audit(ctx, rec, time.Since(began), err)
	s.observe(res, err)
	return res, err
}

// auditRecord is what a sign-ska call is known to be about, filled in as
// the flow learns it: nothing before the token verifies.
type auditRecord struct {
	id      ports.Caller
	job     signing.Job
	checked bool // job holds the checked request
}

// audit logs one sign-ska call: who (tenant, module, kid, jti), what (key,
// algorithm, hash, the number of digests and the SHA-256 of their
// concatenation, never the digests), the outcome and its duration. The
// request id comes with ctx.
func (s *Signer) audit(ctx context.Context, r auditRecord, took time.Duration, err error) {
	attrs := []slog.Attr{slog.String("outcome", outcome(err)), slog.Float64("duration_ms", float64(took.Microseconds())/1000)}
	if r.id.Tenant != "" {
		attrs = append(attrs, slog.String("tenant", r.id.Tenant), slog.String("module", r.id.Module), slog.String("kid", r.id.Kid), slog.String("jti", r.id.JTI))
	}
	if r.checked {
		all := sha256.New()
		for _, d := range r.job.Digests {
			all.Write(d)
		}
		attrs = append(attrs, slog.String("key", r.job.KeyLabel), slog.String("algorithm", string(r.job.Algorithm)),
			slog.String("hash", r.job.Hash.String()), slog.Int("digests", len(r.job.Digests)), slog.String("digests_sha256", hex.EncodeToString(all.Sum(nil))))
	}
	if err != nil {
		attrs = append(attrs, slog.String("reason", err.Error()))
	}
	s.logger.LogAttrs(ctx, slog.LevelInfo, "sign-ska", attrs...)
}

// outcome names the class of a sign-ska result for the audit record.
func outcome(err error) string {
	switch {
	case err == nil:
		return "signed"
	case errors.Is(err, ErrSignUnauthenticated):
		return "unauthenticated"
	case errors.Is(err, ErrSignForbidden):
		return "forbidden"
	case errors.Is(err, ErrSignBadRequest):
		return "bad-request"
	default:
		return "failed"
	}
}

func (s *Signer) sign(ctx context.Context, authorization string, body []byte, rec *auditRecord) (SignResult, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.SigningTimeout)
	defer cancel()
	f := s.flow
	id, err := f.tokens.VerifySignToken(ctx, authorization, body)
	if err != nil {
		if r, ok := errors.AsType[*ports.TokenRefusedError](err); ok {
			kind := ErrSignUnauthenticated
			if r.Forbidden {
				kind = ErrSignForbidden
			}
			return SignResult{}, &RefusalError{Kind: kind, Reason: "token", Detail: r.Reason, Err: err}
		}
		return SignResult{}, fmt.Errorf("%w: %w", ErrSignUnavailable, err)
	}
	rec.id = id
	// The token bound these very bytes; they must mean one thing to every
	// reader of JSON (signing.ParseRequest).
	req, err := signing.ParseRequest(body)
	if err != nil {
		return SignResult{}, badRequest(err)
	}
	job, err := signing.Check(req)
	if err != nil {
		return SignResult{}, badRequest(err)
	}
	rec.job, rec.checked = job, true
	// Fail closed: the body speaks for the authenticated proxy only.
	if !strings.EqualFold(job.Tenant, id.Tenant) || !strings.EqualFold(job.Module, id.Module) {
		return SignResult{}, &RefusalError{Kind: ErrSignForbidden, Reason: "identity", Detail: "the body's tenantId and moduleUuid are not the token's"}
	}
	licensed, err := f.licenses.HasFeature(ctx, id.Tenant, FeatureSigner, s.clock())
	if err != nil {
		return SignResult{}, fmt.Errorf("%w: license: %w", ErrSignUnavailable, err)
	}
	if !licensed {
		return SignResult{}, &RefusalError{Kind: ErrSignForbidden, Reason: "license", Detail: "the tenant does not hold the " + FeatureSigner + " license"}
	}
	permitted, err := f.permissions.HasPermission(ctx, id.Tenant, PermissionSign)
	if err != nil {
		return SignResult{}, fmt.Errorf("%w: permission: %w", ErrSignUnavailable, err)
	}
	if !permitted {
		return SignResult{}, &RefusalError{Kind: ErrSignForbidden, Reason: "permission", Detail: "the tenant does not hold the " + PermissionSign + " permission"}
	}
	part, err := s.partition(ctx, id.Tenant)
	if err != nil {
		return SignResult{}, err
	}
	key := ports.KeyRef{Label: job.KeyLabel}
	pub, err := f.hsm.PublicKey(ctx, part, key)
	if err != nil {
		return SignResult{}, hsmError("public key", err, detailNoKey)
	}
	if err := signing.CheckKey(job.Algorithm, job.Hash, pub); err != nil {
		return SignResult{}, badRequest(err)
	}
	res, err := resultFor(job, pub)
	if err != nil {
		return SignResult{}, fmt.Errorf("%w: %w", ErrSignUnavailable, err)
	}
	res.Identity = id
	// One approval covers the batch: exactly these token inputs, in this
	// order (docs/decisions/0023).
	op := ports.SignOperation{Key: key, Mechanism: mechanisms[job.Algorithm], Hash: job.Hash}
	for _, digest := range job.Digests {
		op.Data = append(op.Data, signing.TokenInput(job.Algorithm, job.Hash, digest))
	}
	if op.Approval, err = f.hsm.Approve(ctx, part, ports.KeyRef{Label: job.KeyLabel + approvalSuffix}, op); err != nil {
		return SignResult{}, hsmError("approval", err, detailNoApprovalKey)
	}
	raws, err := f.hsm.Sign(ctx, part, op)
	if err != nil {
		// The public half was there; the private one is not.
		return SignResult{}, hsmError("signing", err, detailNoKey)
	}
	for i, digest := range job.Digests {
		sig, err := signing.Finish(job, pub, digest, raws[i])
		if err != nil {
			return SignResult{}, fmt.Errorf("%w: digest %d: %w", ErrSignUnavailable, i, err)
		}
		res.Signatures = append(res.Signatures, sig)
	}
	return res, nil
}

var mechanisms = map[signing.Algorithm]ports.Mechanism{
	signing.RSAPKCS1: ports.MechanismRSAPKCS1,
	signing.RSAPSS:   ports.MechanismRSAPSS,
	signing.ECDSA:    ports.MechanismECDSA,
}

// hsmError is the outcome of an HSM operation that failed with err: a
// 400 saying missing when the key the request named is not in the
// partition, else a 502. The adapter's words (the token's label, the
// library's path) stay in the log.
func hsmError(what string, err error, missing string) error {
	if errors.Is(err, ports.ErrKeyNotFound) {
		return &RefusalError{Kind: ErrSignBadRequest, Reason: "key", Detail: missing, Err: fmt.Errorf("%s: %w", what, err)}
	}
	return fmt.Errorf("%w: %s: %w", ErrSignUnavailable, what, err)
}

// badRequest is the 400 of a request signing.ParseRequest, Check or
// CheckKey refused, with their reason.
func badRequest(err error) error {
	if r, ok := errors.AsType[*signing.RequestError](err); ok {
		return &RefusalError{Kind: ErrSignBadRequest, Reason: "request", Detail: r.Reason}
	}
	return &RefusalError{Kind: ErrSignBadRequest, Reason: "request", Detail: "the request cannot be signed", Err: err}
}

// partition resolves the tenant's partition and its PIN: never from this
// service's configuration (§1).
func (s *Signer) partition(ctx context.Context, tenant string) (ports.Partition, error) {
	p, err := s.flow.partitions.Partition(ctx, tenant)
	switch {
	case errors.Is(err, ports.ErrNotFound):
		return ports.Partition{}, &RefusalError{Kind: ErrSignBadRequest, Reason: "partition", Detail: "the tenant has no HSM partition"}
	case err != nil:
		return ports.Partition{}, fmt.Errorf("%w: partition: %w", ErrSignUnavailable, err)
	case p.Type != PartitionType:
		return ports.Partition{}, &RefusalError{Kind: ErrSignBadRequest, Reason: "partition", Detail: "the tenant's HSM partition is not of type " + PartitionType + ", the one this service signs on",
			Err: fmt.Errorf("tenant %s's partition is of type %q", tenant, p.Type)}
	}
	pin, err := resolvePIN(p.PINRef)
	if err != nil {
		return ports.Partition{}, &RefusalError{Kind: ErrSignBadRequest, Reason: "partition", Detail: "the tenant's HSM partition has no usable PIN reference",
			Err: fmt.Errorf("tenant %s's partition: %w", tenant, err)}
	}
	return ports.Partition{Tenant: tenant, Type: p.Type, Module: p.Library, Slot: p.Slot, TokenLabel: p.TokenLabel, User: p.User, PIN: pin}, nil
}

// resolvePIN reads a partition's PIN reference (docs/decisions/0023):
// "pin:VALUE" holds the PIN in the control database itself, as the spec
// describes; "env:NAME" names an environment variable of the signer, for
// operators who keep secrets out of the database.
func resolvePIN(ref string) (string, error) {
	scheme, value, ok := strings.Cut(ref, ":")
	switch {
	case ok && scheme == "pin" && value != "":
		return value, nil
	case ok && scheme == "env" && value != "":
		if pin, set := os.LookupEnv(value); set && pin != "" {
			return pin, nil
		}
		return "", fmt.Errorf("the PIN reference names environment variable %s, which is not set", value)
	}
	return "", errors.New("the PIN reference is neither pin:VALUE nor env:NAME")
}

// resultFor describes the signatures about to be made.
func resultFor(j signing.Job, pub crypto.PublicKey) (SignResult, error) {
	spki, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return SignResult{}, err
	}
	sum := sha256.Sum256(spki)
	names := map[crypto.Hash]string{crypto.SHA256: "SHA-256", crypto.SHA384: "SHA-384", crypto.SHA512: "SHA-512"}
	r := SignResult{KeyLabel: j.KeyLabel, PublicKeySHA256: hex.EncodeToString(sum[:]), HashAlgorithm: names[j.Hash], SignatureAlgorithm: string(j.Algorithm)}
	switch j.Algorithm {
	case signing.RSAPKCS1:
		r.AlgorithmOID = map[crypto.Hash]string{crypto.SHA256: "1.2.840.113549.1.1.11", crypto.SHA384: "1.2.840.113549.1.1.12", crypto.SHA512: "1.2.840.113549.1.1.13"}[j.Hash]
	case signing.RSAPSS:
		r.AlgorithmOID = "1.2.840.113549.1.1.10"
		pss := signing.PSSFor(j.Hash)
		r.PSS = &pss
	case signing.ECDSA:
		r.AlgorithmOID = map[crypto.Hash]string{crypto.SHA256: "1.2.840.10045.4.3.2", crypto.SHA384: "1.2.840.10045.4.3.3", crypto.SHA512: "1.2.840.10045.4.3.4"}[j.Hash]
		r.ECDSAEncoding = j.Encoding
	}
	return r, nil
}
