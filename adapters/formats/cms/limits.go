package cms

// Bounds on attacker-controlled counts and sizes. Real CAdES signatures,
// archive time-stamps and revocation data included, stay far below them;
// input beyond them is refused with ErrLimitExceeded.
const (
	// MaxDepth is the deepest nesting of BER elements read. CMS needs
	// about 12 levels; certificates and CRLs inside are not descended.
	MaxDepth = 64

	// MaxElements is the most elements inside one constructed element
	// that is re-encoded to DER (signed attributes, certificates given in
	// BER).
	MaxElements = 1 << 20

	// MaxStringSegments is the most segments a constructed (BER) OCTET
	// STRING may have, over all its levels. Streaming encoders write the
	// content in 1000- to 64K-byte segments.
	MaxStringSegments = 1 << 20

	// MaxDigestAlgorithms is the most digestAlgorithms entries read.
	MaxDigestAlgorithms = 16

	// MaxCertificates is the most entries of the certificates field.
	MaxCertificates = 512

	// MaxRevocationInfo is the most entries of the crls field.
	MaxRevocationInfo = 512

	// MaxSignerInfos is the most SignerInfos of a SignedData and the most
	// counter-signatures in one countersignature attribute.
	MaxSignerInfos = 64

	// MaxAttributes is the most attributes of one signed or unsigned
	// attribute set.
	MaxAttributes = 128

	// MaxAttributeValues is the most values of one attribute.
	MaxAttributeValues = 64

	// MaxCounterSignatureDepth is the deepest nesting of counter-signatures
	// (a counter-signature of a counter-signature is depth 2).
	MaxCounterSignatureDepth = 8

	// MaxESSCertIDs is the most certificate identifiers read from an ESS
	// signing-certificate attribute.
	MaxESSCertIDs = 64
)
