package reportpdf

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/svc-dss/dss/domain/verdict"
)

// Options are the choices of Render.
type Options struct {
	// Label, when set, returns the report's fixed text id ("report.…",
	// Labels) in the report's language, with the English text's fmt
	// verbs, and whether it has one; the English text stands in for a
	// missing one. The verdict's own texts (summary sentences, scopes,
	// messages, banner) are as the summary holds them.
	Label func(id string) (string, bool)
	// SealedBy names the seal the report will carry (the seal
	// certificate's subject); empty, the report says that it is not
	// sealed.
	SealedBy string
}

// Page geometry, in points: A4 with 50-point margins.
const (
	pageWidth    = 595.28
	pageHeight   = 841.89
	margin       = 50.0
	labelWidth   = 150.0
	contentWidth = pageWidth - 2*margin
	valueWidth   = contentWidth - labelWidth
	bottom       = pageHeight - margin
)

// Font families.
const (
	regular = "regular"
	bold    = "bold"
	mono    = "mono"
)

// Render returns sum as a PDF report.
func Render(sum verdict.ValidationSummary, o Options) ([]byte, error) {
	w, err := newWriter(labelsFor(o.Label))
	if err != nil {
		return nil, err
	}
	w.title(w.l.text(labelTitle))
	if o.SealedBy != "" {
		w.notice(fmt.Sprintf(w.l.text(labelSealed), o.SealedBy))
	} else {
		w.notice(w.l.text(labelNotSealed))
	}
	w.document(sum)
	w.trust(sum.TrustData)
	for i, r := range sum.Signatures {
		w.heading(fmt.Sprintf(w.l.text(labelSignature), i+1, len(sum.Signatures)))
		w.rows(signatureRows(w.l, r))
		w.messages(labelErrors, r.Errors)
		w.messages(labelWarnings, r.Warnings)
	}
	for i, e := range sum.Timestamps {
		w.heading(fmt.Sprintf(w.l.text(labelTimestampEntry), i+1, len(sum.Timestamps)))
		w.rows(timestampEntryRows(w.l, e))
		w.messages(labelErrors, e.Errors)
		w.messages(labelWarnings, e.Warnings)
	}
	if w.err != nil {
		return nil, fmt.Errorf("reportpdf: %w", w.err)
	}
	b, err := w.pdf.GetBytesPdfReturnErr()
	if err != nil {
		return nil, fmt.Errorf("reportpdf: %w", err)
	}
	return b, nil
}

// A row is one labelled value; mono sets the value in the monospaced
// font (hashes, identifiers).
type row struct {
	label string
	value string
	mono  bool
}

// signatureRows are the rows of one signature, in the order the report
// shows them. A field the verdict gains is one row here.
func signatureRows(l labels, r verdict.SignatureReport) []row {
	rows := []row{
		{label: l.text(labelSummary), value: r.Summary},
		{label: l.text(labelSignedBy), value: signer(l, r.SignedBy)},
	}
	if r.SignedBy != nil && r.SignedBy.OrganizationIdentifier != "" {
		rows = append(rows, row{label: l.text(labelOrganizationID), value: r.SignedBy.OrganizationIdentifier, mono: true})
	}
	if r.SignedBy != nil {
		c := r.SignedBy.Certificate
		rows = append(rows, row{label: l.text(labelCertificate), value: fmt.Sprintf("%s\n%s\n%s, %s - %s",
			c.Subject, c.Issuer, c.SerialNumber, when(c.NotBefore), when(c.NotAfter))})
	}
	rows = append(rows,
		row{label: l.text(labelSigningTime), value: timeOr(l, r.SigningTime, labelNotClaimed)},
		row{label: l.text(labelBestSignatureTime), value: timeOr(l, r.BestSignatureTime, labelNotProved)},
	)
	for _, sc := range r.SignatureScope {
		rows = append(rows, row{label: l.text(labelScope), value: sc.Description})
	}
	for i, c := range r.CertificateChain {
		rows = append(rows, row{label: fmt.Sprintf("%s %d", l.text(labelChain), i+1), value: chainText(l, c)})
	}
	rows = append(rows, row{label: "ID", value: r.SignatureID, mono: true})
	if r.CounterSignatureOf != "" {
		rows = append(rows, row{label: l.text(labelCounterSignatureOf), value: r.CounterSignatureOf, mono: true})
	}
	rows = append(rows,
		row{label: l.text(labelFormat), value: r.SignatureFormat},
		row{label: l.text(labelIndication), value: r.Indication.String()},
	)
	if r.SubIndication != nil {
		rows = append(rows, row{label: l.text(labelSubIndication), value: r.SubIndication.String()})
	}
	if r.Container != nil {
		rows = append(rows, row{label: l.text(labelContainer), value: *r.Container})
	}
	if r.PDF != nil {
		rows = append(rows, row{label: l.text(labelPDFField), value: r.PDF.Field + ", " + strconv.Itoa(r.PDF.Revision)})
	}
	if len(r.SignedData) > 0 {
		rows = append(rows, row{label: l.text(labelSignedData), value: strings.Join(r.SignedData, ", ")})
	}
	rows = append(rows,
		row{label: l.text(labelTrustFramework), value: r.TrustFramework},
		row{label: l.text(labelAnchorCountry), value: orText(l, r.AnchorCountry, labelNone)},
		row{label: l.text(labelEIDAS), value: orText(l, r.EIDASQualification, labelNotApplicable)},
		row{label: l.text(labelSwiss), value: orText(l, r.SwissQualification, labelNotApplicable)},
		row{label: l.text(labelHandwritten), value: yesNo(l, r.HandwrittenEquivalent)},
	)
	for _, t := range r.Timestamps {
		rows = append(rows, row{label: l.text(labelTimestamps),
			value: fmt.Sprintf("%s, %s, %s %s", t.Type, when(t.GenerationTime), t.Qualification, t.TrustFramework)})
	}
	return rows
}

// signer is who signed, as a person reads it.
func signer(l labels, b *verdict.SignedBy) string {
	if b == nil {
		return l.text(labelUnknownSigner)
	}
	name := b.Name
	if b.Pseudonym {
		name = fmt.Sprintf(l.text(labelPseudonym), name)
	}
	if b.Organization != "" && b.Organization != name {
		name += ", " + b.Organization
	}
	return name
}

// chainText is one certificate of a chain: its subject, whether it is
// the anchor and from where, and the revocation data relied on.
func chainText(l labels, c verdict.ChainCertificate) string {
	s := c.Subject
	if c.TrustAnchor {
		from := c.AnchorSource
		if c.TrustedList != nil {
			from = c.TrustedList.Territory + " " + c.TrustedList.TrustFramework
		}
		s += "\n" + fmt.Sprintf(l.text(labelChainAnchor), from)
	}
	if rv := c.Revocation; rv != nil {
		at := rv.ThisUpdate
		if rv.ProducedAt != nil {
			at = *rv.ProducedAt
		}
		s += "\n" + fmt.Sprintf(l.text(labelChainRevocation), rv.Status, rv.Source, when(at))
	}
	return s
}

// timeOr is t, or the text of none when t is nil.
func timeOr(l labels, t *time.Time, none labelID) string {
	if t == nil {
		return l.text(none)
	}
	return when(*t)
}

// timestampEntryRows are the rows of one time-stamp entry of the
// document.
func timestampEntryRows(l labels, e verdict.TimestampEntryReport) []row {
	rows := []row{
		{label: "ID", value: e.ID, mono: true},
		{label: l.text(labelDocumentName), value: e.Name},
		{label: l.text(labelIndication), value: e.Indication.String()},
	}
	if e.SubIndication != nil {
		rows = append(rows, row{label: l.text(labelSubIndication), value: e.SubIndication.String()})
	}
	return append(rows,
		row{label: l.text(labelGenerationTime), value: when(e.GenerationTime)},
		row{label: l.text(labelTSA), value: e.TSA},
		row{label: l.text(labelQualification), value: e.Qualification + " " + e.TrustFramework},
		row{label: l.text(labelTimestampedData), value: strings.Join(e.TimestampedData, ", ")},
	)
}

// documentRows are the rows of the document.
func documentRows(l labels, sum verdict.ValidationSummary) []row {
	result := l.text(labelDocumentNotValid)
	if sum.Valid {
		result = l.text(labelDocumentValid)
	}
	return []row{
		{label: l.text(labelDocumentName), value: sum.DocumentName},
		{label: l.text(labelDocumentSHA256), value: sum.DocumentSHA256, mono: true},
		{label: l.text(labelValidationTime), value: when(sum.TrustData.EvaluatedAt)},
		{label: l.text(labelSignatureCount), value: strconv.Itoa(sum.SignatureCount)},
		{label: l.text(labelDocumentResult), value: result},
		{label: l.text(labelDocumentSummary), value: sum.Summary},
	}
}

// trustRows are the rows of the trust data as a whole.
func trustRows(l labels, td verdict.TrustData) []row {
	rows := []row{
		{label: l.text(labelTrustState), value: td.State},
		{label: l.text(labelTrustCurrent), value: yesNo(l, &td.Current)},
		{label: l.text(labelTrustAuthenticated), value: yesNo(l, &td.AnchorDataAuthenticated)},
		{label: l.text(labelTrustLastConfirmed), value: whenOr(l, td.LastConfirmed)},
	}
	if td.Snapshot != nil {
		rows = append(rows, row{label: l.text(labelTrustSnapshot), value: td.Snapshot.SHA256, mono: true})
	}
	if td.Banner != nil {
		rows = append(rows, row{label: l.text(labelTrustNotice), value: td.Banner.Text})
	}
	if td.PrivateCA.Enabled {
		var subjects []string
		for _, a := range td.PrivateCA.Anchors {
			subjects = append(subjects, a.Subject)
		}
		rows = append(rows, row{label: l.text(labelPrivateAnchors), value: orNone(l, strings.Join(subjects, "; "))})
	}
	return rows
}

// listRows are the rows of one trusted list.
func listRows(l labels, ls verdict.ListStatus) []row {
	seq := l.text(labelNone)
	if ls.SequenceNumber != nil {
		seq = strconv.Itoa(*ls.SequenceNumber)
	}
	state := ls.State
	if ls.Authenticity != "" {
		state += ", " + ls.Authenticity
	}
	return []row{
		{label: l.text(labelList), value: ls.Territory + " " + ls.Kind + " (" + ls.Framework + ")"},
		{label: l.text(labelListState), value: state},
		{label: l.text(labelListSequence), value: seq},
		{label: l.text(labelListIssued), value: whenOr(l, ls.IssueDate)},
		{label: l.text(labelListNextUpdate), value: whenOr(l, ls.NextUpdate)},
	}
}

func orText(l labels, s *string, none labelID) string {
	if s == nil || *s == "" {
		return l.text(none)
	}
	return *s
}

func orNone(l labels, s string) string {
	if s == "" {
		return l.text(labelNone)
	}
	return s
}

func yesNo(l labels, b *bool) string {
	switch {
	case b == nil:
		return l.text(labelNotApplicable)
	case *b:
		return l.text(labelYes)
	}
	return l.text(labelNo)
}

// when writes t as the report's times are written: UTC, to the second,
// so that every reader compares them alike.
func when(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

func whenOr(l labels, t *time.Time) string {
	if t == nil {
		return l.text(labelNever)
	}
	return when(*t)
}

// A writer lays the report out top to bottom, page after page. The
// first error stops the writing and is kept in err.
type writer struct {
	pdf  *gopdf.GoPdf
	l    labels
	y    float64
	page int
	err  error
}

func newWriter(l labels) (*writer, error) {
	w := &writer{pdf: &gopdf.GoPdf{}, l: l}
	w.pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	for _, f := range []struct {
		family string
		ttf    []byte
	}{{regular, goregular.TTF}, {bold, gobold.TTF}, {mono, gomono.TTF}} {
		if err := w.pdf.AddTTFFontDataWithOption(f.family, f.ttf, gopdf.TtfOption{OnGlyphNotFoundSubstitute: missingGlyph}); err != nil {
			return nil, fmt.Errorf("reportpdf: font %s: %w", f.family, err)
		}
	}
	w.newPage()
	return w, nil
}

// missingGlyph stands for a character the Go fonts do not have (CJK,
// emoji): a visible '?' rather than gopdf's silent space, so that a
// reader sees that the name shown is not the whole name; the SHA-256
// identifies the document.
func missingGlyph(rune) rune { return '?' }

// newPage starts a page with its footer.
func (w *writer) newPage() {
	w.pdf.AddPage()
	w.page++
	w.font(regular, 8)
	w.pdf.SetTextColor(110, 110, 110)
	w.at(margin, pageHeight-margin/2, fmt.Sprintf(w.l.text(labelPage), w.page))
	w.pdf.SetTextColor(0, 0, 0)
	w.y = margin
}

// room makes sure h points are left on the page.
func (w *writer) room(h float64) {
	if w.y+h > bottom {
		w.newPage()
	}
}

func (w *writer) font(family string, size float64) {
	if w.err == nil {
		w.err = w.pdf.SetFont(family, "", size)
	}
}

// at writes one line of text with its top left at x, y.
func (w *writer) at(x, y float64, s string) {
	if w.err != nil {
		return
	}
	w.pdf.SetXY(x, y)
	w.err = w.pdf.Cell(nil, s)
}

// lines splits s into the lines that fit width in the current font.
func (w *writer) lines(s string, width float64) []string {
	if w.err != nil || s == "" {
		return []string{s}
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		ls, err := w.pdf.SplitTextWithWordWrap(para, width)
		if err != nil {
			// A paragraph of no width (empty) is one empty line.
			ls = []string{para}
		}
		out = append(out, ls...)
	}
	return out
}

func (w *writer) title(s string) {
	w.font(bold, 18)
	w.at(margin, w.y, s)
	w.y += 30
}

// notice is a paragraph set apart: the seal's statement.
func (w *writer) notice(s string) {
	w.font(bold, 10)
	ls := w.lines(s, contentWidth)
	w.room(float64(len(ls)) * 13)
	for _, line := range ls {
		w.at(margin, w.y, line)
		w.y += 13
	}
	w.y += 8
}

func (w *writer) heading(s string) {
	w.room(50)
	w.y += 6
	w.font(bold, 13)
	w.at(margin, w.y, s)
	w.y += 17
	if w.err == nil {
		w.pdf.SetLineWidth(0.5)
		w.pdf.Line(margin, w.y, pageWidth-margin, w.y)
	}
	w.y += 5
}

func (w *writer) subheading(s string) {
	w.room(30)
	w.y += 3
	w.font(bold, 10)
	w.at(margin, w.y, s)
	w.y += 15
}

// rows writes labelled values, the value wrapped in its column.
func (w *writer) rows(rows []row) {
	for _, r := range rows {
		size, family := 10.0, regular
		if r.mono {
			size, family = 8.5, mono
		}
		w.font(family, size)
		ls := w.lines(r.value, valueWidth)
		w.room(float64(len(ls)) * 13)
		w.font(bold, 10)
		w.at(margin, w.y, r.label)
		w.font(family, size)
		for _, line := range ls {
			w.at(margin+labelWidth, w.y, line)
			w.y += 13
		}
		w.y += 2
	}
}

func (w *writer) document(sum verdict.ValidationSummary) {
	w.heading(w.l.text(labelDocument))
	w.rows(documentRows(w.l, sum))
}

func (w *writer) trust(td verdict.TrustData) {
	w.heading(w.l.text(labelTrustData))
	w.rows(trustRows(w.l, td))
	w.subheading(w.l.text(labelTrustLists))
	if len(td.Lists) == 0 {
		w.rows([]row{{label: "", value: w.l.text(labelTrustNoList)}})
	}
	for _, ls := range td.Lists {
		w.rows(listRows(w.l, ls))
		w.y += 4
	}
}

// messages writes the errors or warnings of a signature, each as its
// code and sentence; nothing when there is none.
func (w *writer) messages(id labelID, ms []verdict.Message) {
	if len(ms) == 0 {
		return
	}
	w.subheading(w.l.text(id))
	for _, m := range ms {
		w.font(mono, 8.5)
		w.room(26)
		w.at(margin, w.y, m.Code)
		w.y += 12
		w.font(regular, 10)
		for _, line := range w.lines(m.Message, contentWidth-12) {
			w.room(13)
			w.at(margin+12, w.y, line)
			w.y += 13
		}
		w.y += 3
	}
}
