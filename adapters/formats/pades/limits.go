package pades

// Limits on what a PDF may make the reader do. Beyond them the document
// is unreadable (400), or the data left out is reported.
const (
	// MaxSignatures is the number of signature fields with a value read.
	MaxSignatures = 64
	// MaxFieldDepth bounds the nesting of the AcroForm field tree.
	MaxFieldDepth = 16
	// MaxDSSEntries bounds each of /DSS /Certs, /CRLs and /OCSPs.
	MaxDSSEntries = 512
	// MaxDSSStreamBytes bounds one decoded /DSS stream.
	MaxDSSStreamBytes = 8 << 20
	// MaxPages bounds the pages compared between revisions.
	MaxPages = 10000
	// MaxWalk bounds the objects placed when a signed revision is
	// compared with the final document.
	MaxWalk = 200000
	// MaxPageTreeNodes bounds the page tree nodes read over all the
	// revisions after a signed one (each read once, sharing its parsed
	// objects with the final document): a document of MaxPages pages with
	// MaxSignatures revisions fits.
	MaxPageTreeNodes = 1_000_000
)
