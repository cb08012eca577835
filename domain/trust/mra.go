package trust

import "time"

// An MRA is the mutual recognition agreement information of a LOTL's
// pointer to a third-country list (ETSI TS 119 612 v2.3, Annex K; the
// EU's MRA pilot LOTL): for each kind of trust service, how the pointed
// list's types, statuses, qualifiers and certificate contents map onto
// the pointing party's (eIDAS) ones.
type MRA struct {
	Equivalences []ServiceEquivalence
}

// A ServiceEquivalence is one TrustServiceEquivalenceInformation.
type ServiceEquivalence struct {
	// LegalIdentifier names the kind (QCForESig, QCForESeal, …).
	LegalIdentifier string
	// Enacted is false for a repealed (or unknown-status) equivalence;
	// From is when its status took effect.
	Enacted bool
	From    time.Time
	Types   []TypeEquivalence
	// ValidStatuses and InvalidStatuses map pointed-party status URIs to
	// the pointing party's.
	ValidStatuses, InvalidStatuses []URIEquivalence
	// Qualifiers map pointed-party qualifier URIs to the pointing party's.
	Qualifiers []URIEquivalence
	// Content are the certificate content equivalences.
	Content []ContentEquivalence
}

// A TypeEquivalence maps a pointed-party service type (with its
// additional service information) to the pointing party's.
type TypeEquivalence struct {
	Pointing, Pointed ServiceTypeRef
}

// A ServiceTypeRef is a service type URI with additional service
// information URIs.
type ServiceTypeRef struct {
	TypeURI        string
	AdditionalInfo []string
}

// A URIEquivalence maps one pointed-party URI to a pointing-party URI.
type URIEquivalence struct {
	Pointing, Pointed string
}

// MRA content equivalence contexts.
const (
	ContextQcCompliance = "http://ec.europa.eu/tools/lotl/mra/QcCompliance"
	ContextQcType       = "http://ec.europa.eu/tools/lotl/mra/QcType"
	ContextQcQSCD       = "http://ec.europa.eu/tools/lotl/mra/QcQSCD"
)

// A ContentEquivalence says that a certificate meeting the pointed
// party's declaration counts as meeting the pointing party's, in a
// context (QcCompliance, QcType, QcQSCD).
type ContentEquivalence struct {
	Context           string
	Pointing, Pointed Criteria
}
