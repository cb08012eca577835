package cert

// Bounds on attacker-controlled sizes and counts. Real certificates stay far
// below them; input beyond them is refused with ErrLimitExceeded.
const (
	// MaxCertificateSize is the largest certificate encoding read. The
	// largest European qualified certificates are a few KiB.
	MaxCertificateSize = 1 << 20

	// MaxBundleCertificates is the most certificates ParseAll reads.
	MaxBundleCertificates = 1024

	// MaxExtensions is the most extensions a certificate may carry.
	MaxExtensions = 64

	// MaxPolicies is the most PolicyInformation entries read from the
	// certificate-policies extension.
	MaxPolicies = 64

	// MaxNameAttributes is the most attributes (over all RDNs) read from a
	// distinguished name.
	MaxNameAttributes = 128

	// MaxGeneralNames is the most GeneralName entries read from one
	// GeneralNames value (subject alternative name, CRL distribution point,
	// authority key identifier issuer).
	MaxGeneralNames = 64

	// MaxAccessDescriptions is the most entries read from the authority
	// information access extension.
	MaxAccessDescriptions = 32

	// MaxDistributionPoints is the most entries read from the CRL
	// distribution points extension.
	MaxDistributionPoints = 32

	// MaxExtKeyUsages is the most purposes read from the extended key usage
	// extension.
	MaxExtKeyUsages = 64
)
