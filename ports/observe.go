package ports

import "time"

// The observers below are where the use cases and adapters report what
// they did, for operators: counts and durations, never documents, tokens
// or keys. adapters/metrics implements them over Prometheus; the Nop
// values drop everything, so that code nobody asked to observe reports
// nowhere. (The validation core's own observer, which sees verdicts and
// trust snapshots, is declared where it is consumed: app/validation;
// the signer links neither.) Implementations must be safe for
// concurrent use and must not block: they run on the request's path.

// Revocation kinds and fetch outcomes of a RevocationObserver.
const (
	RevocationOCSP = "ocsp"
	RevocationCRL  = "crl"

	// FetchOK: an answer that serves as revocation data.
	FetchOK = "ok"
	// FetchFailed: no answer (network, HTTP status, timeout).
	FetchFailed = "failed"
	// FetchBlocked: the egress guard refused the address (a private
	// network, a host outside the allow-list); nothing was sent.
	FetchBlocked = "blocked"
	// FetchUnusable: an answer that cannot serve (unsigned by the issuer,
	// about another certificate, unparsable).
	FetchUnusable = "unusable"
)

// RevocationObserver learns of the revocation data fetched online.
type RevocationObserver interface {
	// RevocationFetched reports one fetch of kind (RevocationOCSP,
	// RevocationCRL) and its outcome (FetchOK ...).
	RevocationFetched(kind, outcome string)
	// RevocationCacheHit reports revocation data of kind served from the
	// cache instead of the network.
	RevocationCacheHit(kind string)
}

// SignObserver learns of each sign-ska call and what it used (app/signer).
type SignObserver interface {
	// SignCalled reports a call's outcome ("signed", "unauthenticated",
	// "forbidden", "bad-request", "failed") and, for a refusal, a short
	// stable reason ("token", "license"...); "" else.
	SignCalled(outcome, reason string)
	// Signed reports n signatures made with algorithm (RSA-PSS...).
	Signed(algorithm string, n int)
	// HSMOperation reports one operation on a partition ("public-key",
	// "approve", "sign"), its outcome ("ok", "error", "timeout") and its
	// duration, waiting for a session included.
	HSMOperation(op, outcome string, took time.Duration)
	// ReplayRefused reports a token ID used a second time.
	ReplayRefused()
	// ControlQuery reports one query of the control database and its
	// duration; failed is set when it returned an error.
	ControlQuery(took time.Duration, failed bool)
}

// NopRevocationObserver and NopSignObserver observe nothing.
type (
	NopRevocationObserver struct{}
	NopSignObserver       struct{}
)

func (NopRevocationObserver) RevocationFetched(string, string) {}
func (NopRevocationObserver) RevocationCacheHit(string)        {}

func (NopSignObserver) SignCalled(string, string)                  {}
func (NopSignObserver) Signed(string, int)                         {}
func (NopSignObserver) HSMOperation(string, string, time.Duration) {}
func (NopSignObserver) ReplayRefused()                             {}
func (NopSignObserver) ControlQuery(time.Duration, bool)           {}
