package ports

import (
	"context"
	"crypto/x509"
	"errors"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/revocation"
)

// ErrNotThisFormat is wrapped by a DocumentReader's error when the bytes
// are not of its format; the next reader is tried.
var ErrNotThisFormat = errors.New("not this format")

// ErrUnreadable is wrapped by a DocumentReader's error when the bytes are
// of its format but cannot be read (corrupt, truncated, over a limit):
// the upload is unreadable (400).
var ErrUnreadable = errors.New("unreadable document")

// A Document is an upload: the signed document or signature container,
// and the original data of detached signatures.
type Document struct {
	Name     string
	Data     []byte
	Detached []Detached
	// Certificates are certificates the validator knows besides those the
	// document carries: its trust anchors. A signature that does not
	// embed its signing certificate is identified by one of them (EN 319
	// 102-1, 5.2.3: the signing certificate may come from other sources),
	// as DSS does with its trusted certificates. Readers use them only to
	// find signers; they trust nothing because of them.
	Certificates []*x509.Certificate
}

// Detached is one file of detached signed data.
type Detached struct {
	Name string
	Data []byte
}

// DocumentReader reads the signatures of one format. Read returns an
// error wrapping ErrNotThisFormat when doc is not of its format, one
// wrapping ErrUnreadable when it is but cannot be read, and any other
// error only for an infrastructure failure. A readable document without
// signatures returns no signature and no error.
type DocumentReader interface {
	Read(ctx context.Context, doc Document) ([]ades.Signature, error)
}

// A ContentsReader is a DocumentReader of documents that may hold
// time-stamps of their own besides signatures (a time-stamp-only
// container, a bare time-stamp token): ReadContents returns both, with
// the errors of Read, and its Signatures are those Read returns. The
// validator uses it when a reader implements it (docs/decisions/0032).
type ContentsReader interface {
	DocumentReader
	ReadContents(ctx context.Context, doc Document) (ades.Contents, error)
}

// EmbeddedRevocation is the revocation data a document carries, raw,
// and the responders the validator trusts besides the issuers.
type EmbeddedRevocation struct {
	CRLs          [][]byte
	OCSPResponses [][]byte
	// TrustedResponders are OCSP responders trusted to answer for any
	// certificate (RFC 6960, section 4.2.2.2, a local configuration):
	// those a trusted list names as OCSP services of their own
	// (certpath.AnchorSet.Responders), as the Estonian list names SK's.
	// A response they sign serves, embedded or fetched, as one by the
	// issuer or its delegated responder does.
	TrustedResponders []*x509.Certificate
}

// RevocationSource finds revocation facts for cert, issued by issuer, for
// a validation at at: first in the embedded data, then, unless it is
// configured offline, online (OCSP, then CRL distribution points) when
// no embedded fact can serve at at (revocation.Serves: none is about
// cert and issuer, GOOD or REVOKED, and, if GOOD, still current at at or
// issued after it while cert was valid). It returns the usable facts (matching the certificate,
// signature checked): the embedded ones, even those that cannot serve,
// by descending ThisUpdate, then the fetched ones, likewise. No fact and
// no error means none could be found: the process decides what that
// means. A failed or blocked fetch is not an error (the adapter logs
// it); errors are for a cancelled context, and for a nil certificate or
// issuer or a zero at (a caller's mistake).
type RevocationSource interface {
	Revocation(ctx context.Context, cert, issuer *x509.Certificate, embedded EmbeddedRevocation, at time.Time) ([]revocation.Fact, error)
}

// CertificateSource finds the issuers of a certificate that the document
// did not carry (AIA caIssuers), through the guarded egress. No
// certificate and no error means none could be found.
type CertificateSource interface {
	Issuers(ctx context.Context, cert *x509.Certificate) ([]*x509.Certificate, error)
}
