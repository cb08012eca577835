package asic

// Problem codes, stable: the process and clients match on them. The
// container's findings are added to every signature of the container.
const (
	// CodeMimetypeMissing: no mimetype entry. A format failure, as DSS's
	// default policy has it (MimeTypeFilePresent, FAIL).
	CodeMimetypeMissing = "ASIC_MIMETYPE_MISSING"
	// CodeMimetypeUnknown: the mimetype entry names no ASiC (or
	// OpenDocument) media type. A warning (DSS:
	// AcceptableMimeTypeFileContent, WARN).
	CodeMimetypeUnknown = "ASIC_MIMETYPE_UNKNOWN"
	// CodeMimetypeNotFirst: the mimetype entry is not the first of the
	// zip (EN 319 162-1, A.1). A warning: DSS reads such containers, and
	// judges their signatures on their own merits (the corpus's
	// brokenReference.asice is a HASH_FAILURE, not a FORMAT_FAILURE).
	CodeMimetypeNotFirst = "ASIC_MIMETYPE_NOT_FIRST"
	// CodeMimetypeCompressed: the mimetype entry is compressed (A.1 wants
	// it stored). A warning, for the same reason.
	CodeMimetypeCompressed = "ASIC_MIMETYPE_COMPRESSED"

	// CodeManifestMissing: an ASiC-E CAdES signature (or time-stamp) that
	// no readable ASiCManifest names in its SigReference. A format failure
	// (DSS: ManifestFilePresent, FAIL): what the signature signs cannot
	// be known.
	CodeManifestMissing = "ASIC_MANIFEST_MISSING"
	// CodeManifestUnreadable: an ASiCManifest*.xml or
	// ASiCArchiveManifest*.xml that cannot be read (malformed, a DTD,
	// over a limit). A format failure for the signatures it would name.
	CodeManifestUnreadable = "ASIC_MANIFEST_UNREADABLE"
	// CodeManifestAlgorithm: a manifest entry digested with an algorithm
	// this reader does not compute: the entry is not intact.
	CodeManifestAlgorithm = "ASIC_MANIFEST_UNKNOWN_DIGEST_ALGORITHM"
	// CodeODFManifestUnreadable: META-INF/manifest.xml cannot be read. A
	// warning: nothing signed depends on it being read here.
	CodeODFManifestUnreadable = "ASIC_ODF_MANIFEST_UNREADABLE"

	// CodeTooManyDataObjects: an ASiC-S with more than one data object
	// (EN 319 162-1, 4.3.1). A format failure.
	CodeTooManyDataObjects = "ASIC_S_MORE_THAN_ONE_DATA_OBJECT"
	// CodeDataObjectNotInRoot: an ASiC-S whose data object is not in the
	// root folder (4.3.1). A format failure.
	CodeDataObjectNotInRoot = "ASIC_S_DATA_OBJECT_NOT_IN_ROOT"
	// CodeNoDataObject: an ASiC-S without a data object. A format failure.
	CodeNoDataObject = "ASIC_S_NO_DATA_OBJECT"

	// CodeFileNotSigned: a container file no signature covers. A warning
	// (DSS: AllFilesSigned, WARN); the message names the file.
	CodeFileNotSigned = "ASIC_FILE_NOT_SIGNED"
	// CodeArchiveManifestEntry: an ASiCArchiveManifest entry that is not
	// in the container or whose digest differs. A warning on the
	// signatures the manifest time-stamps.
	CodeArchiveManifestEntry = "ASIC_ARCHIVE_MANIFEST_ENTRY_NOT_INTACT"
	// CodeTimestampUnreadable: a container time-stamp token that cannot
	// be read. A warning on the signatures it would cover.
	CodeTimestampUnreadable = "ASIC_TIMESTAMP_UNREADABLE"
)
