package pades

// SubFilter values this reader knows (ISO 32000-2, 12.8.3; ETSI EN
// 319 142-1).
const (
	SubFilterCAdES         = "ETSI.CAdES.detached"
	SubFilterPKCS7Detached = "adbe.pkcs7.detached"
	SubFilterPKCS7SHA1     = "adbe.pkcs7.sha1"
	SubFilterRFC3161       = "ETSI.RFC3161"
)

// Problem codes of the PAdES reader. The reader reports what it cannot
// read with an error, and the rest as problems, which the process turns
// into warnings, except the format failures (ades.Problem.FormatFailure:
// TOTAL_FAILED/FORMAT_FAILURE, EN 319 102-1 5.2.2), which the reader
// marks so wherever it finds them:
//   - CodeByteRangeInvalid: the /ByteRange does not start the file,
//     overlaps itself, leaves a gap other than its own /Contents or
//     reaches beyond the file, so what was signed is not the document;
//     or it covers again, after its /Contents, what the signatures before
//     it cover after theirs, more than twice the file together, as only
//     signatures sharing one revision do (of which at most one is
//     intact): it is not hashed;
//   - CodePagesChanged, CodePageContentChanged: a later incremental
//     update added or removed pages, or changed what a signed page shows
//     (its content streams, its resources and what they draw, its boxes
//     or rotation), so the document shown is not the one signed
//     (docs/decisions/0020);
//   - CodePageTreeUnreadable: the pages of the document as delivered, or
//     of a revision after the signed one, do not read, so the comparison
//     cannot be made: a later update that breaks the tree must not turn
//     a changed page into a skipped check;
//   - CodeShownAnnotationsChanged: annotations that draw on a signed page
//     were added, removed or redrawn after signing without a
//     certification that permits annotations, so the page does not look
//     as it was signed.
const (
	CodeByteRangeInvalid = "BYTE_RANGE_INVALID"
	CodeDSSUnreadable    = "DSS_UNREADABLE"
	CodeLimitExceeded    = "LIMIT_EXCEEDED"
	// Changes after signing (modification.go). Pages added or removed and
	// a change to what a signed page shows (content streams, resources,
	// boxes, rotation) are format failures; the rest are warnings.
	CodePagesChanged       = "PDF_PAGES_CHANGED"
	CodePageContentChanged = "PDF_PAGE_CONTENT_CHANGED"
	CodeAnnotationsAdded   = "PDF_ANNOTATIONS_ADDED"
	CodeAnnotationsChanged = "PDF_ANNOTATIONS_CHANGED"
	// CodeShownAnnotationsChanged: annotations that draw on a signed page
	// were added, removed or redrawn after signing, so the page does not
	// look as signed: a format failure, unless a certification signature
	// with DocMDP /P 3 permitted annotations (then PDF_ANNOTATIONS_CHANGED).
	CodeShownAnnotationsChanged = "PDF_SHOWN_ANNOTATIONS_CHANGED"
	CodeFormFieldsChanged       = "PDF_FORM_FIELDS_CHANGED"
	CodeObjectsChanged          = "PDF_OBJECTS_CHANGED"
	CodeRevisionUnreadable      = "PDF_SIGNED_REVISION_UNREADABLE"
	// CodeFieldMDPViolated: a form field a signature locked (its field's
	// /Lock, or a FieldMDP reference) was changed after it.
	CodeFieldMDPViolated = "PDF_FIELDMDP_VIOLATED"
	// CodeDocMDPViolated: a change after a certification signature that
	// its DocMDP permissions do not allow (a warning on that signature).
	CodeDocMDPViolated = "PDF_DOCMDP_VIOLATED"
	// CodePageTreeUnreadable: the page tree of the document as delivered,
	// or of a revision after the signed one, does not read, so the pages
	// cannot be compared: a format failure, like a change to them.
	CodePageTreeUnreadable = "PDF_PAGE_TREE_UNREADABLE"
	// CodeUnsignedTrailingContent: bytes other than white space follow the
	// last revision's %%EOF, in no cross-reference section (a warning).
	CodeUnsignedTrailingContent = "PDF_UNSIGNED_TRAILING_CONTENT"
)
