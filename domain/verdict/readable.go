package verdict

import (
	"crypto/x509"
	"time"
)

// SignerKind is whom a signing certificate names: a natural person, or
// an organisation (a legal person, whose signature is a seal).
type SignerKind string

// The kinds of signer.
const (
	SignerPerson       SignerKind = "person"
	SignerOrganization SignerKind = "organization"
)

// SignedBy is the signer as a person reads it, from the signing
// certificate (docs/validate-api.md, signedBy): a natural person by name
// (a pseudonym marked as such), an organisation by its name and
// identifier.
type SignedBy struct {
	Kind SignerKind `json:"kind"`
	// Name is the person's name (givenName and surname, else the common
	// name; the pseudonym when the certificate names one) or, for an
	// organisation, its common name, else its organisation name.
	Name string `json:"name"`
	// Pseudonym is true when Name is a pseudonym, not a legal name.
	Pseudonym bool `json:"pseudonym"`
	// Organization is the subject's organizationName; empty when absent.
	Organization string `json:"organization,omitempty"`
	// OrganizationIdentifier is the subject's organizationIdentifier
	// (2.5.4.97, EN 319 412-1 5.1.4: VATDE-…, NTRCH-CHE-…); empty when
	// absent.
	OrganizationIdentifier string      `json:"organizationIdentifier,omitempty"`
	Certificate            Certificate `json:"certificate"`
}

// Certificate names one X.509 certificate for people: its subject and
// issuer (RFC 4514 strings), its serial number in lower-case hex, and
// its validity.
type Certificate struct {
	Subject      string    `json:"subject"`
	Issuer       string    `json:"issuer"`
	SerialNumber string    `json:"serialNumber"`
	NotBefore    time.Time `json:"notBefore"`
	NotAfter     time.Time `json:"notAfter"`
}

// CertificateOf names c.
func CertificateOf(c *x509.Certificate) Certificate {
	out := Certificate{Subject: c.Subject.String(), Issuer: c.Issuer.String(), NotBefore: c.NotBefore.UTC(), NotAfter: c.NotAfter.UTC()}
	if c.SerialNumber != nil {
		out.SerialNumber = c.SerialNumber.Text(16)
	}
	return out
}

// ScopeKind is how much of its data a signature covers, as DSS's
// SignatureScopeType names it.
type ScopeKind string

// The kinds of signature scope. DSS's ARCHIVED (a file inside a ZIP
// archive that an ASiC container signs) is not produced: the readers do
// not open archives inside containers.
const (
	// ScopeFull: a whole document or file.
	ScopeFull ScopeKind = "FULL"
	// ScopePartial: part of the document: a PDF revision that later
	// updates follow, an XML element.
	ScopePartial ScopeKind = "PARTIAL"
	// ScopeDigest: data known only by its digest, not supplied.
	ScopeDigest ScopeKind = "DIGEST"
	// ScopeCounterSignature: the signature value of the signature it
	// counter-signs.
	ScopeCounterSignature ScopeKind = "COUNTER_SIGNATURE"
)

// SignatureScope is one thing a signature covers: its kind, its name (a
// file name, a reference, a PDF field, a signatureId) and one English
// sentence saying what it is, partial coverage in words.
type SignatureScope struct {
	Kind        ScopeKind `json:"kind"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	// ID and Params are what a catalogue words Description from in
	// another language: one of the ScopeID… templates and its named
	// parameters.
	ID     string  `json:"-"`
	Params []Param `json:"-"`
}

// Template IDs of the scope descriptions (SignatureScope.ID).
const (
	ScopeIDCounterSignature = "scope.counter-signature"
	ScopeIDPDFUnsound       = "scope.pdf-unsound"
	ScopeIDPDFWhole         = "scope.pdf-whole"
	ScopeIDPDFRevision      = "scope.pdf-revision"
	ScopeIDNotFound         = "scope.not-found"
	ScopeIDDetachedMissing  = "scope.detached-missing"
	ScopeIDContainerFile    = "scope.container-file"
	ScopeIDDetachedFile     = "scope.detached-file"
	ScopeIDDocument         = "scope.document"
	ScopeIDEnveloped        = "scope.enveloped"
	ScopeIDXMLElement       = "scope.xml-element"
	ScopeIDData             = "scope.data"
)

// Sources of a trust anchor (ChainCertificate.AnchorSource).
const (
	AnchorTrustedList = "TRUSTED_LIST"
	AnchorPrivateCA   = "PRIVATE_CA"
)

// ChainCertificate is one certificate of a signature's certification
// path, signing certificate first.
type ChainCertificate struct {
	Certificate
	// TrustAnchor is true for the certificate the path ends at, trusted.
	TrustAnchor bool `json:"trustAnchor"`
	// AnchorSource is TRUSTED_LIST or PRIVATE_CA on the anchor; omitted
	// on the others.
	AnchorSource string `json:"anchorSource,omitempty"`
	// TrustedList names the list the anchor came from; null on the
	// others and on a private anchor.
	TrustedList *AnchorList `json:"trustedList"`
	// Revocation is the revocation data the process relied on for this
	// certificate; null when none was checked (the anchor, a path that
	// stopped before revocation checking, an OCSP no-check certificate).
	Revocation *RevocationStatus `json:"revocation"`
}

// AnchorList is the trusted list a trust anchor came from.
type AnchorList struct {
	// TrustFramework is EU_EIDAS or CH_ZERTES.
	TrustFramework string `json:"trustFramework"`
	// Territory is the list's scheme territory (DE, CH, …).
	Territory string `json:"territory"`
	// Authenticated is true when the copy of the list in use was
	// positively authenticated by its own signature.
	Authenticated bool `json:"authenticated"`
}

// RevocationStatus is what one piece of revocation data said of a
// certificate.
type RevocationStatus struct {
	// Status is GOOD or REVOKED.
	Status string `json:"status"`
	// Source is OCSP or CRL.
	Source string `json:"source"`
	// Embedded is true for data found in the document, false for data
	// fetched during the validation.
	Embedded bool `json:"embedded"`
	// ProducedAt is the OCSP response's producedAt; null for a CRL.
	ProducedAt *time.Time `json:"producedAt"`
	ThisUpdate time.Time  `json:"thisUpdate"`
	// NextUpdate is null when the data gives none.
	NextUpdate *time.Time `json:"nextUpdate"`
	// RevokedAt is set when REVOKED.
	RevokedAt *time.Time `json:"revokedAt"`
}
