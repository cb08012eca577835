package certpath

// Limits on the work [Build] does for one certificate. The intermediates
// come from the document under validation, so an attacker controls their
// number; like crypto/x509's maxChainSignatureChecks, these bound the
// search. Reaching a limit never panics: the search stops and, if no path
// was found by then, [Build] returns a [*NoChainError] whose closest miss
// is [MissLimit].
const (
	// MaxSignatureChecks bounds the signature verifications of one
	// [Build] call, cached repeats not counted (crypto/x509 uses 100).
	MaxSignatureChecks = 100

	// MaxPathCertificates bounds the length of a path, leaf and anchor
	// included.
	MaxPathCertificates = 16

	// MaxPaths bounds the number of paths one [Build] call returns; the
	// search stops once it has found this many.
	MaxPaths = 32
)
