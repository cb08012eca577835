package asic

// Bounds on what a container may make the reader do. A container beyond
// them is refused with an error wrapping ports.ErrUnreadable before
// anything is decompressed, except MaxEntrySize's check while reading,
// which stops at the declared size.
const (
	// MaxContainerSize is the largest container read: the uploads are
	// smaller (app/config: 40 MiB for the API), as for package xades.
	MaxContainerSize = 64 << 20

	// MaxEntries is the most entries (files and folders) of a container.
	MaxEntries = 10_000

	// MaxTotalSize bounds the declared uncompressed sizes of all entries
	// together: four times the API upload limit (40 MiB,
	// config.DefaultValidatorMaxRequestBytes). Every file is held in
	// memory, so this is the reader's memory bound too.
	MaxTotalSize = 4 * 40 << 20

	// MaxRatio is the largest compression ratio (uncompressed over
	// compressed size) allowed of an entry larger than RatioThreshold,
	// as DSS bounds it (100 above 1 MB): deflate reaches about 1,000 on
	// repetitive data, which no signed document needs.
	MaxRatio = 100

	// RatioThreshold is the declared uncompressed size from which
	// MaxRatio applies.
	RatioThreshold = 1 << 20

	// MaxXMLSize is the largest container XML read with xmlquery
	// (META-INF/manifest.xml, ASiCManifest*.xml, ASiCArchiveManifest*.xml).
	MaxXMLSize = 4 << 20

	// MaxXMLElements bounds the elements of one container XML.
	MaxXMLElements = 4 * MaxEntries

	// MaxXMLDepth bounds the nesting of one container XML.
	MaxXMLDepth = 32

	// MaxSignatureFiles is the most signature and time-stamp files of one
	// container (META-INF/signature*.p7s, signatures*.xml, *.tst).
	MaxSignatureFiles = 64
)
