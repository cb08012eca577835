package jades

// Bounds on attacker-controlled input. Input beyond them is refused with
// an error wrapping ports.ErrUnreadable, or, for validation data, left
// out with a CodeLimitExceeded problem.
const (
	// MaxDocumentSize is the largest document read.
	MaxDocumentSize = 64 << 20

	// MaxDepth is the deepest nesting of JSON arrays and objects read, in
	// the document and in every header: JAdES needs five or six.
	MaxDepth = 32

	// MaxStringBytes is the longest JSON string read, decoded: an
	// attached payload of some 18 MB, base64url-encoded, fits; a 40 MB
	// string is refused when its 24 millionth byte is reached.
	MaxStringBytes = 24 << 20

	// MaxValues is the most JSON values in one text.
	MaxValues = 1 << 20

	// MaxSignatures is the most signatures read from one document:
	// those of a general JSON serialisation, and counter-signatures
	// (cSig) included.
	MaxSignatures = 256

	// MaxCounterSignatureDepth is the deepest counter-signature nesting
	// read (a cSig of a cSig is depth 2). A base64url-encoded etsiU
	// component is parsed afresh, so MaxDepth alone does not bound it.
	MaxCounterSignatureDepth = 4

	// MaxTimestamps is the most time-stamp tokens read for one signature.
	MaxTimestamps = 32

	// MaxCertificates is the most distinct certificates gathered for one
	// signature (x5c, xVals, tstVD).
	MaxCertificates = 1024

	// MaxRevocationValues is the most CRLs plus OCSP responses gathered
	// for one signature.
	MaxRevocationValues = 1024

	// MaxDetached is the most detached parts tried against a signature,
	// and the most data objects a sigD names.
	MaxDetached = 64

	// MaxComponents is the most etsiU components read for one signature.
	MaxComponents = 4096
)
