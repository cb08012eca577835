package ports

import (
	"context"
	"errors"
	"time"
)

// ErrNoSession is wrapped by a SessionStore's error for a session it does
// not hold: never created, deleted, or expired.
var ErrNoSession = errors.New("no such session")

// A Session is one browser's state in the validator's UI
// (validation-service.md §5 item 1): who signed in for which tenant, the
// form token and the last validated document. Only a completed login
// makes one: a login in progress is not kept on the server
// (docs/decisions/0024). Sessions are values: a store hands out copies.
type Session struct {
	// ID is the session cookie's value: 256 random bits, base64url.
	ID string
	// Tenant and Subject are who signed in.
	Tenant  string
	Subject string
	// CSRF is the token every form of the session posts back.
	CSRF string
	// Started is when the session was signed in.
	Started time.Time
	// Expires is when the store forgets the session. Whoever updates the
	// session moves it (idle timeout), never past the absolute limit.
	Expires time.Time
	// Last is the last document validated in the session, for the report
	// downloads; nil before the first.
	Last *Reports
	// Language is the language the browser chose for the pages ("en",
	// "de", "fr" or "it"); "" until it chooses one, when its
	// Accept-Language decides (docs/decisions/0038).
	Language string
}

// Reports are the last validated document's reports, rendered when it was
// validated. A session keeps them rather than the validation itself,
// whose certificates and tokens point into the uploaded bytes: a session
// must hold tens of kilobytes, not the upload's megabytes.
type Reports struct {
	DocumentName string
	// Detailed is the detailed report (docs/detailed-report.xsd).
	Detailed []byte
	// ETSI is the TS 119 102-2 report; nil for a document without
	// signatures, which that report cannot describe.
	ETSI []byte
	// Summary is the verdict as POST /api/validate answers it, encoded
	// with the wording of its messages (encoding/gob),
	// which the result page shows again in another language and the
	// PDF report is rendered (and sealed) from when it is downloaded: a
	// few kilobytes, where the rendered report with its
	// fonts is tens. Bytes rather than the verdict's type keep the port
	// free of validation, which the signer links nothing of.
	Summary []byte
	// Token is the Signature Validation Token (RFC 9321), signed when the
	// document was validated; nil without a report seal or a signature.
	Token []byte
}

// A SessionStore keeps sessions until they expire. Implementations must be
// safe for concurrent use and must never return a session whose Expires
// has passed.
type SessionStore interface {
	// Create stores a new session. It fails if s.ID is already in use.
	Create(ctx context.Context, s Session) error
	// Get returns the session with the given ID, or an error wrapping
	// ErrNoSession.
	Get(ctx context.Context, id string) (Session, error)
	// Update applies fn to the session with the given ID and stores the
	// result, atomically with respect to other calls for the same
	// session, and returns it. fn must not change the ID, and must do
	// nothing but change the session: a store shared by several
	// processes may call it again after another update came first. If fn fails,
	// nothing is stored and its error is returned. An unknown or expired
	// session is an error wrapping ErrNoSession, and fn is not called.
	Update(ctx context.Context, id string, fn func(*Session) error) (Session, error)
	// Delete forgets the session; an unknown ID is not an error.
	Delete(ctx context.Context, id string) error
}
