package pades

import (
	"bytes"
	"cmp"
	"context"
	"crypto"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/adapters/formats/pdf"
	"github.com/svc-dss/dss/adapters/formats/tsp"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// Reader reads the signatures and document time-stamps of a PDF. It
// implements ports.DocumentReader. The zero value is ready to use.
type Reader struct{}

var _ ports.DocumentReader = (*Reader)(nil)

// NewReader returns a Reader.
func NewReader() *Reader { return &Reader{} }

// Read returns the evidence of every signature of the PDF doc.Data, in
// the order of the AcroForm fields. Document time-stamps are not
// signatures: each is the archive time-stamp of the signatures it covers.
// A PDF without signature fields gives no signature and no error.
func (r *Reader) Read(ctx context.Context, doc ports.Document) (sigs []ades.Signature, err error) {
	if !isPDF(doc.Data) {
		return nil, fmt.Errorf("%w: pades: not a PDF", ports.ErrNotThisFormat)
	}
	// pdfcpu panics on some malformed input outside the calls that catch
	// it (found by FuzzRead): its panic is an unreadable document, not a
	// crash. A panic of our own code is a bug, not the document's fault:
	// pdf.Recover lets it go on up, to the validation's recovery (a 500).
	defer func() {
		if p := recover(); p != nil {
			sigs, err = nil, fmt.Errorf("%w: pades: %s: %w", ports.ErrUnreadable, doc.Name, pdf.Recover(p))
		}
	}()
	file, err := pdf.Open(doc.Data)
	if err != nil {
		return nil, fmt.Errorf("%w: pades: %s: %w", ports.ErrUnreadable, doc.Name, err)
	}
	rd := &reading{data: doc.Data, pdf: file, prefix: &prefixes{data: doc.Data}, certs: doc.Certificates, fieldInfo: map[string]field{}, signingTimeAttr: map[string]bool{}, changes: map[int]changes{}}
	fields, err := rd.signatureFields()
	if err != nil {
		return nil, err
	}
	dss := rd.dss()
	certification := rd.docMDP(fields)
	var stamps []docTimestamp
	for _, f := range fields {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.docTimestamp {
			stamps = append(stamps, rd.documentTimestamp(f))
			continue
		}
		s, err := rd.signature(ctx, f)
		if err != nil {
			return nil, err
		}
		locked := rd.fieldLockViolations(f)
		for i := range s {
			s[i].Problems = append(s[i].Problems, locked...)
			if certification.of(f) {
				s[i].Problems = append(s[i].Problems, certification.violations(fields)...)
			}
			certification.permit(f, s[i].Problems)
		}
		sigs = append(sigs, s...)
	}
	after := rd.trailing()
	for i := range sigs {
		rd.complete(&sigs[i], dss, stamps)
		sigs[i].Problems = append(sigs[i].Problems, after...)
	}
	return sigs, nil
}

// Detect reports whether data is of the format Read reads: a PDF, which
// Read may still find unreadable. It looks at the first kilobyte only.
// Read returns an error wrapping ports.ErrNotThisFormat for exactly the
// data Detect does not claim.
func Detect(data []byte) bool { return isPDF(data) }

// isPDF reports whether data starts with a PDF header, which readers find
// within the first kilobyte (ISO 32000-2, 7.5.2 allows leading bytes).
func isPDF(data []byte) bool {
	return bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-"))
}

// reading is the state of one Read.
type reading struct {
	data []byte
	pdf  *pdf.File
	// prefix hashes the byte ranges, sharing what they share.
	prefix *prefixes
	certs  []*x509.Certificate
	// fieldInfo is the field of each signature, by signature ID.
	fieldInfo map[string]field
	// signingTimeAttr holds the IDs of the PAdES signatures whose CMS
	// carries a signing-time attribute (legacyForm).
	signingTimeAttr map[string]bool
	// final is the pages of the document as delivered, read the first
	// time a revision is compared (finalRead).
	final     pageView
	finalErr  error
	finalRead bool
	// changes memoises changesAfter by revision end.
	changes map[int]changes
	// revisions memoises revisionAt: every comparison of a revision, its
	// DocMDP, its DSS and its page tree read the same File.
	revisions map[int]revisionFile
	// trees memoises laterTrees: the error of each revision's page tree,
	// by revision end, read within treeBudget nodes in all.
	trees      map[int]error
	treeBudget int
}

type revisionFile struct {
	f   *pdf.File
	err error
}

// revisionAt opens the revision of the document that ends at end, once,
// sharing parsed objects with the final document (openRevision).
func (rd *reading) revisionAt(end int) (*pdf.File, error) {
	if end >= len(rd.data) {
		return rd.pdf, nil
	}
	if r, ok := rd.revisions[end]; ok {
		return r.f, r.err
	}
	if rd.revisions == nil {
		rd.revisions = map[int]revisionFile{}
	}
	f, err := openRevision(rd.pdf, rd.data, end)
	rd.revisions[end] = revisionFile{f, err}
	return f, err
}

// changesAfter reports what the updates after the revision ending at end
// changed (modifications), once per revision.
//
// When something follows the revision, a page tree that does not read,
// in the document as delivered or in any revision after the signed one,
// is a format failure: the pages cannot be compared, and an update that
// breaks the tree on purpose must not turn replaced content into a
// skipped check. A signature over the whole document has nothing to
// compare: its pages not reading stays the warning it was.
func (rd *reading) changesAfter(end int) changes {
	if c, ok := rd.changes[end]; ok {
		return c
	}
	if !rd.finalRead {
		rd.final, rd.finalErr = viewOf(rd.pdf, nil)
		rd.finalRead = true
	}
	var c changes
	switch {
	case rd.finalErr != nil && blank(rd.data[end:]):
		c.problems = []ades.Problem{{Code: CodeRevisionUnreadable, Message: fmt.Sprintf("the pages of the document do not read: %v", rd.finalErr)}}
	case rd.finalErr != nil:
		c.problems = []ades.Problem{{Code: CodePageTreeUnreadable, FormatFailure: true, Message: fmt.Sprintf(
			"the pages of the document as delivered do not read (%v): what the signature covers cannot be compared with what is shown", rd.finalErr)}}
	default:
		c = modifications(rd.data, end, rd.revisionAt, rd.pdf, rd.final)
		c.problems = append(c.problems, rd.laterTrees(end)...)
	}
	rd.changes[end] = c
	return c
}

// laterTrees reports the revisions after the one ending at end, before
// the last, whose page tree does not read. Each revision's tree is read
// once, all within one budget of MaxPageTreeNodes nodes, so that many revisions
// of many pages stay linear in the file; beyond it the rest is reported
// as not checked. A revision that does not open through its own
// cross-reference chain (a linearization trailer, an embedded file's
// %%EOF) is not a revision and is passed over: only the final document
// goes to the repairing reader.
func (rd *reading) laterTrees(end int) []ades.Problem {
	if rd.trees == nil {
		rd.trees = map[int]error{}
		rd.treeBudget = MaxPageTreeNodes
	}
	ends := rd.pdf.Revisions()
	for _, e := range ends {
		if e <= end || e >= len(rd.data) {
			continue
		}
		err, ok := rd.trees[e]
		if !ok {
			if f, ferr := rd.revisionAt(e); ferr == nil && !f.Repaired() && !rd.sameTreeAsFinal(f) {
				_, err = f.PagesWithin(MaxPages, &rd.treeBudget)
			}
			rd.trees[e] = err
		}
		switch {
		case errors.Is(err, pdf.ErrLimit):
			return []ades.Problem{{Code: CodeLimitExceeded, Message: fmt.Sprintf(
				"the page trees of the revisions after the first %d bytes were not all read: more than %d nodes", e, MaxPageTreeNodes)}}
		case err != nil:
			return []ades.Problem{{Code: CodePageTreeUnreadable, FormatFailure: true, Message: fmt.Sprintf(
				"the pages of the revision of the first %d bytes, written after the signature, do not read (%v): what the signature covers cannot be compared with it", e, err)}}
		}
	}
	return nil
}

// sameTreeAsFinal reports whether revision f has the final document's
// page tree: the same catalog and tree root, no tree node of the final
// document written since f, and its pages written since (the updates that
// add a signature rewrite a page's /Annots) still leaves. Then f's tree
// reads as the final's did, and is not walked again.
func (rd *reading) sameTreeAsFinal(f *pdf.File) bool {
	pr := rd.final.printer
	if rd.finalErr != nil || pr == nil || !sameTreeRoot(f, rd.pdf) {
		return false
	}
	changed, ok := rd.pdf.ChangedSince(f)
	if !ok {
		return false
	}
	nodes := pr.treeNodes()
	for _, n := range changed {
		internal, ok := nodes[n]
		if !ok {
			continue
		}
		if internal {
			return false
		}
		d, err := f.Dict(indirect(n))
		if err != nil || d == nil || d["Kids"] != nil {
			return false
		}
		if t := d.Type(); t != nil && *t == "Pages" {
			return false
		}
	}
	return true
}

// trailing reports content that follows the document's last revision:
// bytes after its %%EOF that are not white space, which no cross-reference
// section lists and no signature covers, but which viewers that repair a
// file (mupdf, qpdf) read into the document.
func (rd *reading) trailing() []ades.Problem {
	end := rd.pdf.End()
	if end < 0 {
		ends := eofEnds(rd.data) // a repaired file: its last %%EOF
		if len(ends) == 0 {
			return nil
		}
		end = ends[len(ends)-1]
	}
	if blank(rd.data[end:]) {
		return nil
	}
	return []ades.Problem{{Code: CodeUnsignedTrailingContent, Message: fmt.Sprintf(
		"%d bytes follow the last revision (after its %%%%EOF at byte %d) in no cross-reference section: content no signature covers, which some viewers show", len(rd.data)-end, end)}}
}

// blank reports whether b is all PDF white space (ISO 32000-2, 7.2.3),
// NUL included: some writers pad a file with it.
func blank(b []byte) bool {
	for _, c := range b {
		switch c {
		case 0, '\t', '\n', '\f', '\r', ' ':
		default:
			return false
		}
	}
	return true
}

// field is a signature field whose value is a signature dictionary.
type field struct {
	name         string
	dict         types.Dict
	docTimestamp bool
	byteRange    [4]int
	contents     []byte
	// end is where the revision the signature covers ends (the end of its
	// second byte range).
	end int
	// problems found in the dictionary and its byte range.
	problems []ades.Problem
	// ref is the signature dictionary's object, when indirect.
	ref *types.IndirectRef
	// fieldDict is the signature field holding it.
	fieldDict types.Dict
}

// signatureFields walks the AcroForm field tree and returns the signature
// fields that hold a signature, in field order.
func (rd *reading) signatureFields() ([]field, error) {
	x := rd.pdf
	root, err := x.Catalog()
	if err != nil {
		return nil, fmt.Errorf("%w: pades: no catalog: %w", ports.ErrUnreadable, err)
	}
	form, err := x.Dict(root["AcroForm"])
	if err != nil || form == nil {
		return nil, nil
	}
	kids, err := x.Array(form["Fields"])
	if err != nil {
		return nil, nil
	}
	var out []field
	seen := map[types.IndirectRef]bool{}
	var walk func(objs types.Array, inheritedFT, parentName string, depth int) error
	walk = func(objs types.Array, inheritedFT, parentName string, depth int) error {
		if depth > MaxFieldDepth {
			return fmt.Errorf("%w: pades: form fields nested deeper than %d", ports.ErrUnreadable, MaxFieldDepth)
		}
		for _, o := range objs {
			if ref, ok := o.(types.IndirectRef); ok {
				if seen[ref] {
					continue // a cycle, or a field listed twice
				}
				seen[ref] = true
			}
			d, err := x.Dict(o)
			if err != nil || d == nil {
				continue
			}
			name, ft := fieldOf(d, parentName, inheritedFT)
			if k, err := x.Array(d["Kids"]); err == nil && len(k) > 0 {
				if err := walk(k, ft, name, depth+1); err != nil {
					return err
				}
			}
			if ft != "Sig" {
				continue
			}
			v, err := x.Dict(d["V"])
			if err != nil || v == nil {
				continue // an empty signature field
			}
			if len(out) == MaxSignatures {
				return fmt.Errorf("%w: pades: more than %d signatures", ports.ErrUnreadable, MaxSignatures)
			}
			f := rd.field(name, v)
			f.fieldDict = d
			if r, ok := d["V"].(types.IndirectRef); ok {
				f.ref = &r
			}
			out = append(out, f)
		}
		return nil
	}
	if err := walk(kids, "", "", 0); err != nil {
		return nil, err
	}
	budgetSecondRanges(out, len(rd.data))
	return out, nil
}

// budgetSecondRanges leaves unhashed the signatures whose second byte
// ranges, added up in field order, would cover more than twice the file.
// A signature's second range runs from its /Contents to the end of the
// revision it signs, inside that revision: the second ranges of
// signatures in different revisions do not overlap and add up to less
// than the file. Signatures whose holes share a revision cover the same
// bytes again, and at most one of them can be intact (each one's
// /Contents lies in the others' ranges). The saved prefix states of
// digest.go share first ranges, never second ones: without this bound, 64
// signatures at the start of one 20 MB revision make the reader hash
// 1.3 GB (issue 25).
func budgetSecondRanges(fields []field, size int) {
	left := 2 * size
	for i := range fields {
		f := &fields[i]
		if len(f.problems) > 0 {
			continue
		}
		if f.byteRange[3] > left {
			f.problems = append(f.problems, ades.Problem{Code: CodeByteRangeInvalid, FormatFailure: true, Message: fmt.Sprintf(
				"/ByteRange %v covers again, after its /Contents, what the signatures before it cover after theirs: together more than twice the file, which signatures in separate revisions never do; it is not hashed", f.byteRange)})
			continue
		}
		left -= f.byteRange[3]
	}
}

func fieldName(d types.Dict) string {
	if s, err := d.StringEntryBytes("T"); err == nil && s != nil {
		return string(s)
	}
	return ""
}

// fieldOf is the full name and field type of d, a node of the field tree
// under a parent of that name and (inheritable) type (ISO 32000-2,
// 12.7.4.2).
func fieldOf(d types.Dict, parentName, parentFT string) (name, ft string) {
	name, ft = parentName, parentFT
	if n := d.NameEntry("FT"); n != nil {
		ft = *n
	}
	if t := fieldName(d); t != "" {
		name = strings.TrimPrefix(parentName+"."+t, ".")
	}
	return name, ft
}

// field reads a signature dictionary and checks its byte range.
func (rd *reading) field(name string, d types.Dict) field {
	f := field{name: name, dict: d}
	if t := d.Type(); t != nil && *t == "DocTimeStamp" {
		f.docTimestamp = true
	}
	if sf := d.NameEntry("SubFilter"); sf != nil && *sf == SubFilterRFC3161 {
		f.docTimestamp = true
	}
	contents, err := d.StringEntryBytes("Contents")
	if err != nil || contents == nil {
		f.problems = append(f.problems, ades.Say(CodeByteRangeInvalid, "contents", "the signature dictionary has no readable /Contents").Failure())
	}
	f.contents = trimDER(contents)
	arr := d.ArrayEntry("ByteRange")
	if len(arr) != 4 {
		f.problems = append(f.problems, ades.Say(CodeByteRangeInvalid, "count", fmt.Sprintf("/ByteRange has %d numbers, not 4", len(arr)), verdict.NumberParam("Count", len(arr))).Failure())
		return f
	}
	for i, o := range arr {
		n, ok := o.(types.Integer)
		if !ok {
			f.problems = append(f.problems, ades.Say(CodeByteRangeInvalid, "integers", "/ByteRange holds something other than integers").Failure())
			return f
		}
		f.byteRange[i] = int(n)
	}
	if msg := checkByteRange(f.byteRange, rd.data, contents); msg != "" {
		f.problems = append(f.problems, ades.Problem{Code: CodeByteRangeInvalid, FormatFailure: true, Message: msg})
		return f
	}
	f.end = f.byteRange[2] + f.byteRange[3]
	return f
}

// checkByteRange says what is wrong with r in data, "" when nothing: it
// must start the file, leave out exactly the /Contents hex string of
// this dictionary (no gap, no overlap) and end inside the file (ISO
// 32000-2, 12.8.1; ETSI EN 319 142-1, 5.4).
func checkByteRange(r [4]int, data, contents []byte) string {
	for _, n := range r {
		if n < 0 || n > len(data) {
			return fmt.Sprintf("/ByteRange %v reaches outside the file (%d bytes)", r, len(data))
		}
	}
	switch {
	case r[0] != 0:
		return fmt.Sprintf("/ByteRange starts at %d, not at the start of the file", r[0])
	case r[1] == 0 || r[2] < r[1]+2:
		// The gap holds at least "<>".
		return fmt.Sprintf("/ByteRange %v overlaps itself or leaves no room for /Contents", r)
	case r[2]+r[3] > len(data):
		return fmt.Sprintf("/ByteRange %v reaches beyond the end of the file (%d bytes)", r, len(data))
	case data[r[1]] != '<' || data[r[2]-1] != '>':
		return fmt.Sprintf("/ByteRange %v does not leave out exactly a hex string", r)
	}
	gap, err := hex.DecodeString(string(bytes.Join(bytes.Fields(data[r[1]+1:r[2]-1]), nil)))
	if err != nil || !bytes.Equal(gap, contents) {
		return fmt.Sprintf("the bytes /ByteRange %v leaves out are not this signature's /Contents", r)
	}
	return ""
}

// trimDER cuts the zero padding after the DER element /Contents holds.
func trimDER(b []byte) []byte {
	if len(b) < 2 {
		return b
	}
	n, hdr := int(b[1]), 2
	if b[1]&0x80 != 0 {
		k := int(b[1] & 0x7f)
		if k == 0 || k > 4 || len(b) < 2+k {
			return b // indefinite or odd: leave it to the CMS parser
		}
		n = 0
		for _, c := range b[2 : 2+k] {
			n = n<<8 | int(c)
		}
		hdr += k
	}
	if hdr+n <= len(b) {
		return b[:hdr+n]
	}
	return b
}

// ranges streams the bytes r covers from the document, without copying.
func (rd *reading) ranges(r [4]int) func() io.Reader {
	return func() io.Reader {
		return io.MultiReader(bytes.NewReader(rd.data[r[0]:r[0]+r[1]]), bytes.NewReader(rd.data[r[2]:r[2]+r[3]]))
	}
}

// signature reads the CMS of a signature field.
func (rd *reading) signature(ctx context.Context, f field) ([]ades.Signature, error) {
	subFilter := ""
	if sf := f.dict.NameEntry("SubFilter"); sf != nil {
		subFilter = *sf
	}
	format := ades.PAdES
	switch subFilter {
	case SubFilterCAdES:
	case SubFilterPKCS7Detached, SubFilterPKCS7SHA1:
		format = ades.PKCS7
	default:
		return nil, fmt.Errorf("%w: pades: signature %q: /SubFilter %q is not one this service reads", ports.ErrUnreadable, f.name, subFilter)
	}
	r := f.byteRange
	content := cades.Content{
		Open:   rd.ranges(r),
		Digest: func(hashes ...crypto.Hash) (cms.Digests, error) { return rd.prefix.digests(r, hashes...) },
	}
	switch {
	case len(f.problems) > 0:
		// Without a sound byte range the signed data is unknown.
		content = cades.Content{Open: func() io.Reader { return bytes.NewReader(nil) }}
	case subFilter == SubFilterPKCS7SHA1:
		// The CMS signs the SHA-1 digest of the byte range as its
		// content (ISO 32000-2, 12.8.3.3.1). SHA-1 identifies here; it
		// is the signature's own algorithm, which the process judges.
		content = cades.Content{Open: func() io.Reader {
			d, _ := rd.prefix.digest(r, crypto.SHA1)
			return bytes.NewReader(d)
		}}
	}
	sigs, err := cades.ReadEmbedded(ctx, f.contents, content, rd.certs, format)
	if err != nil {
		return nil, fmt.Errorf("pades: signature %q: %w", f.name, err)
	}
	var changed []ades.Problem
	if len(f.problems) == 0 {
		changed = rd.changesAfter(f.end).problems
	}
	for i := range sigs {
		s := &sigs[i]
		s.Problems = slices.Concat(f.problems, changed, withoutCAdESOnly(s.Problems))
		if format == ades.PAdES && !s.ClaimedSigningTime.IsZero() {
			// Read before /M takes its place.
			rd.signingTimeAttr[s.ID] = true
		}
		if t, err := f.dict.StringEntryBytes("M"); err == nil && t != nil {
			if m, ok := types.DateTime(string(t), true); ok {
				s.ClaimedSigningTime = m.UTC()
			}
		}
		s.Placement = rd.placement(f)
		for _, c := range changed {
			s.Placement.Changes = append(s.Placement.Changes, c.Message)
		}
		rd.fieldInfo[s.ID] = f
	}
	return sigs, nil
}

// placement says where the signature of f sits in the document.
func (rd *reading) placement(f field) *ades.Placement {
	p := &ades.Placement{Kind: ades.PDFField, Name: f.name}
	for key, to := range map[string]*string{"Reason": &p.Reason, "Location": &p.Location, "ContactInfo": &p.ContactInfo} {
		if v, err := rd.pdf.Resolve(f.dict[key]); err == nil && v != nil {
			if s, err := types.StringOrHexLiteral(v); err == nil && s != nil {
				*to = *s
			}
		}
	}
	if f.end > 0 {
		p.CoversWholeDocument = len(bytes.TrimSpace(rd.data[f.end:])) == 0
		ends := rd.pdf.Revisions()
		if ends == nil {
			ends = eofEnds(rd.data)
		}
		for _, e := range ends {
			if e <= f.end {
				p.Revision++
			}
		}
		p.Revision = max(p.Revision, 1)
		p.Revisions = max(len(ends), p.Revision)
	}
	return p
}

// eofEnds is where each %%EOF line of data ends: the revisions of a file
// whose cross-reference chain is not known.
func eofEnds(data []byte) []int {
	var ends []int
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("%%EOF"))
		if j < 0 {
			return ends
		}
		i += j + len("%%EOF")
		for i < len(data) && (data[i] == '\r' || data[i] == '\n') {
			i++
		}
		ends = append(ends, i)
	}
}

// withoutCAdESOnly drops the CAdES findings that do not apply to a PDF
// signature: PAdES forbids the signing-time attribute (the time is /M).
func withoutCAdESOnly(problems []ades.Problem) []ades.Problem {
	var out []ades.Problem
	for _, p := range problems {
		if p.Code != cades.CodeNoSigningTime {
			out = append(out, p)
		}
	}
	return out
}

// docTimestamp is a document time-stamp and the revision it covers.
type docTimestamp struct {
	field
	evidence ades.Timestamp
	ok       bool // the token parsed
}

// documentTimestamp reads an ETSI.RFC3161 signature field: an RFC 3161
// token over its byte range (ETSI EN 319 142-1, 5.4.3).
func (rd *reading) documentTimestamp(f field) docTimestamp {
	ts := docTimestamp{field: f}
	tok, err := tsp.Parse(f.contents)
	if err != nil || len(f.problems) > 0 {
		return ts
	}
	var imprintErr error
	if d, err := rd.prefix.digest(f.byteRange, tok.Info.MessageImprint.Hash); err == nil {
		imprintErr = tok.CheckImprintDigest(d)
	} else {
		imprintErr = tok.CheckImprintReader(rd.ranges(f.byteRange)()) // says which hash is not supported
	}
	ts.evidence = cades.TimestampEvidence(ades.ArchiveTimestamp, tok, imprintErr, rd.certs)
	ts.evidence.Document = true
	ts.ok = true
	return ts
}

// complete adds to a signature what the document holds besides its CMS:
// the document security store and the document time-stamps over its
// revision, and sets its level from the document alone (ETSI EN 319
// 142-1, 6), each level including the previous one:
//
//   - B: a signed signing-certificate reference (PAdES); for
//     adbe.pkcs7.* (PKCS7_*), none is asked, as DSS asks none.
//   - T: a signature time-stamp in the CMS, or a document time-stamp
//     over the signature.
//   - LT: a version of the store written after the first of those ends
//     (after the signature's own revision for a signature time-stamp),
//     and the stores hold revocation data about the signing certificate
//     and the TSA certificates of those time-stamps (holdsLTData):
//     validation data added after the signature, and the signature's
//     own. Whether it covers the rest of the chain,
//     and whether it is usable, is not asked here: the process decides,
//     and reports a lower EvidenceLevel, as for CAdES (cades/level.go).
//     The validator's certificates (rd.certs) play no part: the same
//     bytes have the same level whatever lists are loaded.
//   - LTA: a document time-stamp written after that version of the
//     store, over it.
//
// A document time-stamp is an archive time-stamp when it covers that
// store; otherwise it is a T-level time-stamp of the signature.
func (rd *reading) complete(s *ades.Signature, dss *dssData, stamps []docTimestamp) {
	f := rd.fieldInfo[s.ID]
	if s.Format == ades.PKCS7 && s.Level == ades.NotBaseline {
		// DSS names no signing-certificate reference requirement for
		// PKCS7_*, and Adobe's adbe.pkcs7.detached signatures carry
		// none: the CMS's own level is B, or T with a signature
		// time-stamp whose token parsed (the CAdES reader lists only
		// those), and the rest follows the same rules as PAdES.
		s.Level = ades.LevelB
		if slices.ContainsFunc(s.Timestamps, func(t ades.Timestamp) bool { return t.Type == ades.SignatureTimestamp }) {
			s.Level = ades.LevelT
		}
	}
	covered := filter(stamps, func(t docTimestamp) bool { return t.ok && f.end > 0 && t.end >= f.end })
	// tAt is where the signature's first T-level proof ends, -1 without
	// one; ltAt is where the first store written after it starts, -1
	// without one.
	tAt, ltAt := -1, -1
	switch {
	case f.end <= 0:
	case s.Level >= ades.LevelT:
		tAt = f.end
	case len(covered) > 0:
		tAt = slices.MinFunc(covered, func(a, b docTimestamp) int { return cmp.Compare(a.end, b.end) }).end
	}
	if tAt >= 0 {
		ltAt = dss.after(tAt)
	}
	lt := ltAt >= 0 && rd.holdsLTData(s, dss, covered, ltAt)
	if f.end > 0 && dss.after(f.end) >= 0 {
		s.Certificates = append(s.Certificates, dss.certs...)
		s.CRLs = append(s.CRLs, dss.crls...)
		s.OCSPResponses = append(s.OCSPResponses, dss.ocsps...)
		s.Problems = append(s.Problems, dss.problems...)
	}
	hasT, hasA := s.Level >= ades.LevelT, false
	for _, t := range covered {
		ev := t.evidence
		if lt && t.byteRange[1] > ltAt {
			hasA = true // over the LT store: an archive time-stamp
		} else {
			ev.Type = ades.SignatureTimestamp
			hasT = true
		}
		s.Timestamps = append(s.Timestamps, ev)
	}
	sort.SliceStable(s.Timestamps, func(i, j int) bool { return s.Timestamps[i].GenTime.Before(s.Timestamps[j].GenTime) })

	if s.Level < ades.LevelB {
		return // PAdES_NOT_ETSI
	}
	switch {
	case lt && hasA:
		s.Level = ades.LevelLTA
	case lt:
		s.Level = ades.LevelLT
	case hasT:
		s.Level = ades.LevelT
	default:
		s.Level = ades.LevelB
	}
	if s.Format == ades.PAdES && rd.signingTimeAttr[s.ID] {
		s.Form = legacyForm(s, lt && hasA)
	}
}

// Forms of PAdES outside the baseline levels, as DSS names them: those of
// ETSI TS 102 778 parts 3 and 4, which the baseline profiles replaced.
const (
	formBES  = "PAdES_BES"
	formEPES = "PAdES_EPES"
	formLTV  = "PAdES_LTV"
)

// legacyForm names a PAdES signature whose CMS carries a signing-time
// attribute. EN 319 142-1 (6.3, Table 1) forbids the attribute at every
// baseline level, the claimed time being /M, so the signature meets none,
// whatever the document adds to it. DSS reads it by the older profiles:
// PAdES_LTV when a document time-stamp covers validation data that makes
// it LT (ltv; TS 102 778-4), else PAdES_EPES with a signature policy and
// PAdES_BES without (TS 102 778-3). pades-021 is PAdES_LTV for DSS: its
// structure is that of LTA, its CMS has the attribute.
//
// The level stays what the evidence stands for, as for the extended
// XAdES forms: the process asks of it what it asks of a baseline
// signature.
func legacyForm(s *ades.Signature, ltv bool) string {
	switch {
	case ltv:
		return formLTV
	case s.PolicyID != "":
		return formEPES
	}
	return formBES
}

// holdsLTData reports whether the stores hold revocation data
// (holdsRevocationOf) about the signing certificate of s and about the
// TSA certificate of each of its T-level time-stamps: those in its CMS
// and the document time-stamps over it that the store written at ltAt
// follows. DSS asks it of every certificate, TSAs included, and calls a
// signature without it T (pades-010, -031).
func (rd *reading) holdsLTData(s *ades.Signature, dss *dssData, covered []docTimestamp, ltAt int) bool {
	carried := slices.Concat(s.Certificates, dss.certs)
	if !dss.holdsRevocationOf(s.SigningCertificate, carried) {
		return false
	}
	var stamps []ades.Timestamp
	for _, t := range s.Timestamps {
		if t.Type == ades.SignatureTimestamp {
			stamps = append(stamps, t)
		}
	}
	for _, t := range covered {
		if t.byteRange[1] <= ltAt {
			stamps = append(stamps, t.evidence)
		}
	}
	for _, t := range stamps {
		if !dss.holdsRevocationOf(t.TSACertificate, slices.Concat(carried, t.Certificates)) {
			return false
		}
	}
	return true
}

func filter(ts []docTimestamp, keep func(docTimestamp) bool) []docTimestamp {
	var out []docTimestamp
	for _, t := range ts {
		if keep(t) {
			out = append(out, t)
		}
	}
	return out
}
