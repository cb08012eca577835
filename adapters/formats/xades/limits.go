package xades

// Bounds on attacker-controlled counts, on top of those of package xmldsig
// (document size, elements, depth, text, references, transforms). Input
// beyond them is refused with an error wrapping ports.ErrUnreadable, or,
// for validation data, left out with a CodeLimitExceeded problem.
const (
	// MaxDocumentSize is the largest document read. Signed XML is mostly
	// markup; xmldsig's element and text limits bound the tree further.
	MaxDocumentSize = 64 << 20

	// MaxSignatures is the most ds:Signature elements read from one
	// document, counter-signatures included.
	MaxSignatures = 256

	// MaxCounterSignatureDepth is the deepest counter-signature nesting
	// read (a counter-signature of a counter-signature is depth 2).
	MaxCounterSignatureDepth = 4

	// MaxTimestamps is the most time-stamp tokens read for one signature.
	MaxTimestamps = 32

	// MaxCertificates is the most distinct certificates gathered for one
	// signature (KeyInfo, CertificateValues, TimeStampValidationData).
	MaxCertificates = 1024

	// MaxRevocationValues is the most CRLs plus OCSP responses gathered
	// for one signature.
	MaxRevocationValues = 1024

	// MaxDetached is the most detached parts tried against a signature.
	MaxDetached = 64

	// MaxPropertyItems is the most items read from one property (Cert
	// elements of a SigningCertificate, commitment types, includes).
	MaxPropertyItems = 1024
)
