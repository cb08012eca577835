package cades

// Bounds on attacker-controlled counts and sizes, on top of those of
// package cms (nesting, attributes, certificates per field). Input beyond
// them is refused with an error wrapping ports.ErrUnreadable.
const (
	// MaxSigners is the most SignerInfos of one SignedData read.
	MaxSigners = 64

	// MaxCounterSignatureDepth is the deepest counter-signature nesting
	// read (a counter-signature of a counter-signature is depth 2).
	MaxCounterSignatureDepth = 4

	// MaxSignatures is the most signatures, counter-signatures included,
	// one document yields.
	MaxSignatures = 256

	// MaxTimestamps is the most time-stamp tokens read for one signature
	// (content, signature and archive time-stamps together).
	MaxTimestamps = 32

	// MaxCertificates is the most distinct certificates gathered for one
	// signature (SignedData certificates plus certificate-values).
	MaxCertificates = 1024

	// MaxRevocationValues is the most CRLs plus OCSP responses gathered
	// for one signature or time-stamp.
	MaxRevocationValues = 1024

	// MaxDetached is the most detached parts tried against a signature.
	MaxDetached = 16

	// MaxAttributeItems is the most items read from one attribute value
	// (commitment types, certificate values, entries of a hash index).
	MaxAttributeItems = 4096
)
