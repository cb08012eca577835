// Package asic reads ASiC-S and ASiC-E containers (ETSI EN 319 162-1)
// and OpenDocument files signed with XAdES, delegating each signature
// inside to the CAdES and XAdES readers, and reports, per signature, the
// container files it covers. Read implements ports.DocumentReader;
// ReadContents (ports.ContentsReader) also returns the time-stamps that
// are entries of their own as time-stamp entries (ades.TimestampEntry,
// docs/decisions/0032), each with the files it covers and the
// container's findings; ReadContainer returns the container's type,
// files, findings and those time-stamps.
//
// # What it reads
//
//   - ASiC-S: the one data object; META-INF/signature.p7s (CAdES detached
//     over it), META-INF/signatures.xml (XAdES referencing it by name),
//     META-INF/timestamp.tst (a time-stamp over it: Container.Timestamps,
//     its imprint checked). More than one data object, none, or one not
//     in the root folder is a format failure.
//   - ASiC-E: META-INF/signature*.p7s, each CAdES over the
//     ASiCManifest*.xml whose SigReference names it; the manifest's
//     DataObjectReferences become the signature's data objects, each
//     digest checked against the container file (a missing file: Found
//     false; a different digest: Intact false). META-INF/signatures*.xml
//     are XAdES, given the container files as detached parts by name.
//     timestamp*.tst named by an ASiCManifest are time-stamps of their own
//     (Container.Timestamps); those named by an ASiCArchiveManifest*.xml
//     are archive time-stamps of the signatures the manifest lists; one
//     that no manifest names is a time-stamp of its own that covers
//     nothing known, a format failure (ASIC_MANIFEST_MISSING).
//   - Estonian BDOC 2.1 containers (.bdoc, .asice) are ASiC-E with
//     XAdES: package xades reads their time-mark signatures as
//     XAdES_BASELINE_LT_TM (docs/decisions/0031-bdoc-time-mark.md).
//   - OpenDocument (mimetype application/vnd.oasis.opendocument.*, with
//     META-INF/documentsignatures.xml): an ASiC-E with XAdES whose data
//     files are all the files but the signatures.
//   - Container XML nobody canonicalises (ASiCManifest*.xml,
//     ASiCArchiveManifest*.xml, META-INF/manifest.xml) is read with
//     antchfx/xmlquery: a DTD is refused, size, elements and depth are
//     bounded (limits.go). Signed XML stays with package xades.
//
// # Decisions
//
// Recognition (Detect), as DSS does: a zip whose first entry is mimetype
// with an ASiC media type (or an OpenDocument one with
// META-INF/documentsignatures.xml), or whose META-INF holds the ASiC
// signature, time-stamp or manifest files whatever the mimetype. The type
// comes from the mimetype, else the zip comment, else the structure (one
// data object and no manifest: ASiC-S).
//
// The mimetype, as DSS's default policy judges it: missing is a format
// failure (MimeTypeFilePresent, FAIL); a content that is no ASiC media
// type is a warning (AcceptableMimeTypeFileContent, WARN); compressed or
// not first (EN 319 162-1, A.1) is a warning: DSS reads such containers
// and judges their signatures on their merits (the corpus's
// brokenReference.asice, whose mimetype is not first, is a HASH_FAILURE).
// An ASiC-E CAdES signature no readable ASiCManifest names is a format
// failure (ManifestFilePresent, FAIL); a file no signature covers is a
// warning on every signature (AllFilesSigned, WARN). The container's
// findings are added to every signature's Problems.
//
// The zip is read from the uploaded bytes, never written to disk, and
// refused as unreadable (ports.ErrUnreadable, a 400), as DSS refuses such
// archives with an exception rather than a report: more than MaxEntries
// entries or MaxTotalSize bytes declared uncompressed, an entry over
// MaxRatio, an entry longer or shorter than it declares (read through an
// io.LimitReader one byte past it) or with a wrong CRC, duplicate names,
// names with a ".." , "." or empty segment, absolute (a leading slash or a
// drive letter), with a backslash or a control character, encrypted
// entries, methods other than stored and deflate, local headers that
// disagree with the central directory (name, method, encryption, CRC and
// sizes), and entries that overlap. The central directory is scanned
// before archive/zip allocates anything for it. A zip inside the
// container is a data file: never opened.
//
// # Non-goals (for now)
//
//   - DSS's zip-comment check, the ASiC-E XAdES META-INF/manifest.xml
//     cross check against the container.
package asic
