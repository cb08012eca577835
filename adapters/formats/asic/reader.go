package asic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/tsp"
	"github.com/svc-dss/dss/adapters/formats/xades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// Type is the type of an ASiC container (EN 319 162-1, 4.1).
type Type uint8

const (
	_     Type = iota
	ASiCS      // ASiC-S
	ASiCE      // ASiC-E
)

// String is the type as DSS and SiVa report it: ASiC-S, ASiC-E.
func (t Type) String() string {
	switch t {
	case ASiCS:
		return "ASiC-S"
	case ASiCE:
		return "ASiC-E"
	}
	return ""
}

// A Container is what Reader.ReadContainer found in a container.
type Container struct {
	Type Type
	// OpenDocument is true for an OpenDocument file (its mimetype names
	// an OpenDocument media type), read as an ASiC-E with XAdES.
	OpenDocument bool
	// MimeType is the mimetype entry's content, empty when absent.
	MimeType string
	// Files are the container's data files, in zip order: the files a
	// signature may cover (for ASiC, those outside META-INF/; for
	// OpenDocument, all but mimetype and the signatures).
	Files []string
	// Signatures are the signatures of the container's signature files,
	// in zip order, each with the container files it covers as data
	// objects and the container's Problems.
	Signatures []ades.Signature
	// Timestamps are the time-stamp tokens that are entries of their own
	// (ASiC-S META-INF/timestamp.tst over the data object, ASiC-E
	// timestamp*.tst over an ASiCManifest); the archive time-stamps of
	// ASiCArchiveManifest*.xml go to the signatures they cover instead.
	Timestamps []Timestamp
	// Problems are the container's own findings (mimetype, structure,
	// files no signature covers).
	Problems []ades.Problem
}

// A Timestamp is a time-stamp token that is a container entry of its
// own, not a signature's.
type Timestamp struct {
	// Name is the token's entry name.
	Name string
	// Timestamp is its evidence: the token's own signature checked, its
	// imprint checked against the data object (ASiC-S) or the manifest
	// (ASiC-E) it covers.
	ades.Timestamp
	// Covers are the files it covers, each with its digest check: the
	// data object of an ASiC-S (its imprint is the check), the
	// manifest and the manifest's entries of an ASiC-E.
	Covers []ades.DataObject
	// Problems are the findings about it (an unreadable manifest).
	Problems []ades.Problem
}

// Reader reads ASiC-S and ASiC-E containers and OpenDocument files with
// XAdES signatures. It implements ports.DocumentReader. The zero value
// is ready to use.
type Reader struct {
	// cms and xml read the signatures inside: a container is a way to
	// carry CAdES and XAdES signatures, whose readers the registry makes
	// (adapters/formats, the only place readers are named).
	cms, xml ports.DocumentReader
}

var _ ports.ContentsReader = (*Reader)(nil)

// NewReader returns a Reader that reads the CMS signatures of a
// container (META-INF/signature*.p7s) with cms and its XML signatures
// (META-INF/signatures*.xml) with xml.
func NewReader(cms, xml ports.DocumentReader) *Reader { return &Reader{cms: cms, xml: xml} }

// Read returns the signatures of the container doc.Data, each covering
// container files (ReadContainer). doc.Detached is not used: a container
// holds its data.
func (r *Reader) Read(ctx context.Context, doc ports.Document) ([]ades.Signature, error) {
	c, err := r.ReadContainer(ctx, doc)
	if err != nil {
		return nil, err
	}
	return c.Signatures, nil
}

// ReadContents returns the signatures of the container doc.Data, as Read,
// and its time-stamps that are entries of their own (Container.Timestamps)
// as time-stamp entries: each with the files it covers as data objects
// and the container's Problems (docs/decisions/0032).
func (r *Reader) ReadContents(ctx context.Context, doc ports.Document) (ades.Contents, error) {
	c, err := r.ReadContainer(ctx, doc)
	if err != nil {
		return ades.Contents{}, err
	}
	out := ades.Contents{Signatures: c.Signatures}
	ids := map[string]int{}
	for _, ts := range c.Timestamps {
		e := ades.TimestampEntry{
			ID:          ades.TimestampID(ts.Token),
			Name:        ts.Name,
			Container:   c.Type.String(),
			Timestamp:   ts.Timestamp,
			DataObjects: ts.Covers,
			Problems:    append(append([]ades.Problem(nil), ts.Problems...), c.Problems...),
		}
		ids[e.ID]++
		if n := ids[e.ID]; n > 1 {
			e.ID = fmt.Sprintf("%s-%d", e.ID, n)
		}
		out.Timestamps = append(out.Timestamps, e)
	}
	return out, nil
}

// ReadContainer reads the container doc.Data: the zip (hardened, see the
// package doc), its mimetype and structure, its signatures through the
// CAdES and XAdES readers, its manifests and time-stamps. An error wraps
// ports.ErrNotThisFormat for data that is no container (Detect),
// ports.ErrUnreadable for a zip refused.
func (r *Reader) ReadContainer(ctx context.Context, doc ports.Document) (*Container, error) {
	if !Detect(doc.Data) {
		return nil, fmt.Errorf("%w: asic: not an ASiC container", ports.ErrNotThisFormat)
	}
	a, err := open(doc.Data)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, doc.Name)
	}
	rd := &reading{r: r, doc: doc, a: a, c: &Container{}, byName: map[string]*file{}, ids: map[string]int{}}
	for i := range a.files {
		rd.byName[a.files[i].name] = &a.files[i]
	}
	rd.structure()
	if err := rd.signatures(ctx); err != nil {
		return nil, err
	}
	rd.finish()
	return rd.c, nil
}

// reading is the state of one ReadContainer.
type reading struct {
	r      *Reader
	doc    ports.Document
	a      *archive
	c      *Container
	byName map[string]*file
	ids    map[string]int

	// The entries by role, in zip order.
	data, meta, cadesSigs, xadesSigs, tokens, manifests, archives []*file
	// origin is the signature file of each of c.Signatures.
	origin []string
}

func (rd *reading) problem(failure bool, code, format string, args ...any) {
	rd.c.Problems = append(rd.c.Problems, ades.Problem{Code: code, Message: fmt.Sprintf(format, args...), FormatFailure: failure})
}

// say adds the container's finding p, a format failure when failure is
// set.
func (rd *reading) say(failure bool, p ades.Problem) {
	p.FormatFailure = failure
	rd.c.Problems = append(rd.c.Problems, p)
}

// structure reads the mimetype, sorts the entries by role and decides
// the container type.
func (rd *reading) structure() {
	c := rd.c
	mt := -1
	for i, f := range rd.a.files {
		if f.name == "mimetype" {
			mt = i
			break
		}
	}
	if mt < 0 {
		rd.say(true, ades.Say(CodeMimetypeMissing, "missing", "the container has no mimetype entry"))
	} else {
		f := rd.a.files[mt]
		c.MimeType = strings.TrimSpace(string(f.data))
		if mt != 0 {
			rd.say(false, ades.Say(CodeMimetypeNotFirst, "not-first", "the mimetype entry is not the first of the container"))
		}
		if f.method != 0 {
			rd.say(false, ades.Say(CodeMimetypeCompressed, "compressed", "the mimetype entry is compressed"))
		}
	}
	c.OpenDocument = strings.HasPrefix(c.MimeType, mimeODF)
	if mt >= 0 && !c.OpenDocument && c.MimeType != MimeASiCS && c.MimeType != MimeASiCE {
		rd.say(false, ades.Say(CodeMimetypeUnknown, "type", fmt.Sprintf("the mimetype entry names %q, not an ASiC media type", truncate(c.MimeType)),
			verdict.QuotedParam("Type", truncate(c.MimeType))))
	}
	for i := range rd.a.files {
		f := &rd.a.files[i]
		switch kindOf(f.name) {
		case dataFile:
			rd.data = append(rd.data, f)
		case otherMeta:
			rd.meta = append(rd.meta, f)
		case cadesSignature:
			rd.cadesSigs = append(rd.cadesSigs, f)
		case xadesSignature:
			rd.xadesSigs = append(rd.xadesSigs, f)
		case timestampToken:
			rd.tokens = append(rd.tokens, f)
		case asicManifest:
			rd.manifests = append(rd.manifests, f)
		case archiveManifest:
			rd.archives = append(rd.archives, f)
		}
	}
	if c.OpenDocument {
		// Everything but the mimetype, the folders and the signatures is
		// the document's.
		rd.data = append(rd.data, rd.meta...)
		rd.meta = nil
	}
	for _, f := range rd.data {
		c.Files = append(c.Files, f.name)
	}
	switch {
	case c.OpenDocument || c.MimeType == MimeASiCE:
		c.Type = ASiCE
	case c.MimeType == MimeASiCS:
		c.Type = ASiCS
	case strings.Contains(rd.a.comment, MimeASiCE):
		c.Type = ASiCE
	case strings.Contains(rd.a.comment, MimeASiCS):
		c.Type = ASiCS
	default:
		// As DSS guesses it: one data object and no manifest is ASiC-S.
		c.Type = ASiCE
		if len(rd.data) == 1 && len(rd.manifests) == 0 && rd.byName["META-INF/manifest.xml"] == nil {
			c.Type = ASiCS
		}
	}
	if m := rd.byName["META-INF/manifest.xml"]; m != nil && !c.OpenDocument {
		if _, err := parseODFManifest(m.data); err != nil {
			rd.problem(false, CodeODFManifestUnreadable, "META-INF/manifest.xml: %v", err)
		}
	}
	if c.Type == ASiCS && len(rd.cadesSigs)+len(rd.xadesSigs)+len(rd.tokens) > 0 {
		var root int
		for _, f := range rd.data {
			if !strings.Contains(f.name, "/") {
				root++
			}
		}
		switch {
		case len(rd.data) == 0:
			rd.say(true, ades.Say(CodeNoDataObject, "none", "the ASiC-S container has no data object"))
		case len(rd.data) > 1:
			rd.say(true, ades.Say(CodeTooManyDataObjects, "count", fmt.Sprintf("the ASiC-S container has %d data objects, not one", len(rd.data)),
				verdict.NumberParam("Count", len(rd.data))))
		case root == 0:
			rd.say(true, ades.Say(CodeDataObjectNotInRoot, "object", fmt.Sprintf("the ASiC-S data object %q is not in the root folder", rd.data[0].name),
				verdict.QuotedParam("Object", rd.data[0].name)))
		}
	}
}

// signatures reads every signature and time-stamp file.
func (rd *reading) signatures(ctx context.Context) error {
	if n := len(rd.cadesSigs) + len(rd.xadesSigs) + len(rd.tokens) + len(rd.archives); n > MaxSignatureFiles {
		return fmt.Errorf("%w: asic: %d signature and time-stamp files: more than %d", ports.ErrUnreadable, n, MaxSignatureFiles)
	}
	var byRef, archived map[string][]*manifest
	if rd.c.Type == ASiCE {
		byRef = rd.readManifests(rd.manifests)
		archived = rd.readManifests(rd.archives)
	}
	for _, f := range rd.cadesSigs {
		if err := rd.cadesFile(ctx, f, byRef); err != nil {
			return err
		}
	}
	for _, f := range rd.xadesSigs {
		if err := rd.xadesFile(ctx, f); err != nil {
			return err
		}
	}
	for _, f := range rd.tokens {
		if err := ctx.Err(); err != nil {
			return err
		}
		switch {
		case rd.c.Type == ASiCS:
			rd.sTimestamp(f)
		case len(byRef[f.name]) > 0:
			rd.eTimestamp(f, byRef[f.name])
		case len(archived[f.name]) == 0:
			rd.unnamedTimestamp(f)
		}
	}
	if rd.c.Type == ASiCE {
		rd.archiveTimestamps(archived)
	}
	return nil
}

// readManifests parses the manifests ms, by the signature or time-stamp
// their SigReference names. An unreadable one is a format failure of
// the container.
func (rd *reading) readManifests(ms []*file) map[string][]*manifest {
	out := map[string][]*manifest{}
	for _, f := range ms {
		m, err := parseManifest(f.name, f.data)
		if err != nil {
			rd.problem(true, CodeManifestUnreadable, "%s: %v", f.name, err)
			continue
		}
		ref := m.sigRef
		if rd.byName[ref] == nil {
			if u, err := url.PathUnescape(ref); err == nil {
				ref = u
			}
		}
		out[ref] = append(out[ref], m)
	}
	return out
}

// cadesFile reads a CAdES signature file: detached over the data object
// (ASiC-S) or over the ASiCManifest that names it (ASiC-E), whose entries
// then become the signature's data objects.
func (rd *reading) cadesFile(ctx context.Context, f *file, byRef map[string][]*manifest) error {
	var parts []ports.Detached
	var ms []*manifest
	if rd.c.Type == ASiCS {
		for _, d := range rd.data {
			if len(parts) < cades.MaxDetached {
				parts = append(parts, ports.Detached{Name: d.name, Data: d.data})
			}
		}
	} else {
		ms = byRef[f.name]
		for _, m := range ms {
			if len(parts) < cades.MaxDetached {
				parts = append(parts, ports.Detached{Name: m.name, Data: m.data})
			}
		}
	}
	sigs, err := rd.r.cms.Read(ctx, ports.Document{Name: f.name, Data: f.data, Detached: parts, Certificates: rd.doc.Certificates})
	if err != nil {
		return inner(f, err)
	}
	for i := range sigs {
		sig := &sigs[i]
		if rd.c.Type == ASiCE {
			if len(ms) == 0 {
				sig.Problems = append(sig.Problems, ades.Say(CodeManifestMissing, "signature", fmt.Sprintf("no readable ASiCManifest names the signature %s", f.name),
					verdict.TextParam("Name", f.name)).Failure())
			}
			var signed *manifest
			for _, d := range sig.DataObjects {
				for _, m := range ms {
					if d.Name == m.name && d.Found {
						signed = m
					}
				}
			}
			if signed == nil && len(ms) == 1 {
				signed = ms[0]
			}
			if signed != nil {
				sig.DataObjects = append(sig.DataObjects, rd.entries(sig, signed)...)
			}
		}
		if rd.c.Type == ASiCS && len(rd.data) == 1 {
			// The CMS covers the data object, whether its digest matched
			// or not: name it.
			for j := range sig.DataObjects {
				if rd.byName[sig.DataObjects[j].Name] == nil {
					sig.DataObjects[j].Name = rd.data[0].name
				}
			}
		}
		rd.add(f.name, *sig)
	}
	return nil
}

// entries checks the entries of manifest m against the container files;
// sig, when not nil, gets the problems.
func (rd *reading) entries(sig *ades.Signature, m *manifest) []ades.DataObject {
	out := make([]ades.DataObject, 0, len(m.entries))
	for _, e := range m.entries {
		h := digestHash(e.algorithm)
		d := ades.DataObject{Name: e.uri, DigestAlgorithm: cert.HashName(h), Digest: e.digest}
		f := rd.lookup(e.uri)
		if f != nil {
			d.Name, d.Found = f.name, true
			switch {
			case h == 0 || !h.Available():
				if sig != nil {
					sig.Problems = append(sig.Problems, ades.Say(CodeManifestAlgorithm, "entry",
						fmt.Sprintf("%s: entry %q digested with %q, which this reader does not compute", m.name, e.uri, truncate(e.algorithm)),
						verdict.TextParam("Manifest", m.name), verdict.QuotedParam("Entry", e.uri), verdict.QuotedParam("Algorithm", truncate(e.algorithm))))
				}
			default:
				hh := h.New()
				hh.Write(f.data)
				d.Intact = bytes.Equal(hh.Sum(nil), e.digest)
			}
		}
		out = append(out, d)
	}
	return out
}

// lookup finds the container file a URI names: as written, else
// percent-decoded.
func (rd *reading) lookup(uri string) *file {
	if f := rd.byName[uri]; f != nil {
		return f
	}
	if u, err := url.PathUnescape(uri); err == nil {
		if f := rd.byName[u]; f != nil {
			return f
		}
	}
	return nil
}

// xadesFile reads a XAdES signature file, the container files given as
// its detached parts by name.
func (rd *reading) xadesFile(ctx context.Context, f *file) error {
	cand := append([]*file(nil), rd.data...)
	if rd.c.Type == ASiCE {
		cand = append(cand, rd.meta...)
	}
	if m := rd.byName["mimetype"]; m != nil && rd.c.OpenDocument {
		cand = append(cand, m) // OpenDocument signatures may sign it
	}
	if len(cand) > xades.MaxDetached {
		// Only the files the signature may name: their name, or its
		// percent-encoding, is in its bytes.
		var named []*file
		for _, c := range cand {
			if len(named) < xades.MaxDetached && (bytes.Contains(f.data, []byte(c.name)) || bytes.Contains(f.data, []byte(url.PathEscape(c.name))) ||
				bytes.Contains(f.data, []byte(path.Base(c.name)))) {
				named = append(named, c)
			}
		}
		cand = named
	}
	parts := make([]ports.Detached, len(cand))
	for i, c := range cand {
		parts[i] = ports.Detached{Name: c.name, Data: c.data}
	}
	sigs, err := rd.r.xml.Read(ctx, ports.Document{Name: f.name, Data: f.data, Detached: parts, Certificates: rd.doc.Certificates})
	if err != nil {
		return inner(f, err)
	}
	for _, sig := range sigs {
		rd.add(f.name, sig)
	}
	return nil
}

// inner is the error of an inner reader on the signature file f: a file
// of no signature format is unreadable here, never ErrNotThisFormat
// (which would send the container to another reader).
func inner(f *file, err error) error {
	if errors.Is(err, ports.ErrNotThisFormat) {
		return fmt.Errorf("%w: asic: %s is not a signature of its format", ports.ErrUnreadable, f.name)
	}
	return fmt.Errorf("asic: %s: %w", f.name, err)
}

// token reads a time-stamp token, nil with a problem when unreadable.
func (rd *reading) token(f *file) *tsp.Token {
	tok, err := tsp.Parse(f.data)
	if err != nil {
		rd.problem(false, CodeTimestampUnreadable, "%s: %v", f.name, err)
		return nil
	}
	return tok
}

// sTimestamp reads an ASiC-S time-stamp, over the data object.
func (rd *reading) sTimestamp(f *file) {
	tok := rd.token(f)
	if tok == nil {
		return
	}
	ts := Timestamp{Name: f.name}
	var covered *file
	for _, d := range rd.data {
		if tok.CheckImprint(d.data) == nil {
			covered = d
			break
		}
	}
	var data []byte
	if covered == nil && len(rd.data) > 0 {
		covered = rd.data[0]
	}
	if covered != nil {
		data = covered.data
	}
	ts.Timestamp = cades.TimestampEvidence(ades.ContentTimestamp, tok, tok.CheckImprint(data), rd.doc.Certificates)
	ts.Document = true
	if covered != nil {
		ts.Covers = []ades.DataObject{{Name: covered.name, Found: true, Intact: ts.Imprint.Valid, DigestAlgorithm: ts.Imprint.Algorithm, Digest: tok.Info.MessageImprint.HashedMessage}}
	}
	rd.c.Timestamps = append(rd.c.Timestamps, ts)
}

// eTimestamp reads an ASiC-E time-stamp over the manifests that name it.
func (rd *reading) eTimestamp(f *file, ms []*manifest) {
	tok := rd.token(f)
	if tok == nil {
		return
	}
	m := ms[0]
	for _, c := range ms {
		if tok.CheckImprint(c.data) == nil {
			m = c
		}
	}
	ts := Timestamp{Name: f.name}
	ts.Timestamp = cades.TimestampEvidence(ades.ContentTimestamp, tok, tok.CheckImprint(m.data), rd.doc.Certificates)
	ts.Document = true
	ts.Covers = append([]ades.DataObject{{Name: m.name, Found: true, Intact: ts.Imprint.Valid, DigestAlgorithm: ts.Imprint.Algorithm, Digest: tok.Info.MessageImprint.HashedMessage}},
		rd.entries(nil, m)...)
	rd.c.Timestamps = append(rd.c.Timestamps, ts)
}

// errNoManifest is the imprint comparison of an ASiC-E time-stamp that no
// manifest names: there is nothing to compare with.
var errNoManifest = errors.New("asic: no ASiCManifest names the time-stamp")

// unnamedTimestamp reads an ASiC-E time-stamp that no ASiCManifest and no
// ASiCArchiveManifest names: what it covers cannot be known, a format
// failure of the time-stamp (DSS: ManifestFilePresent, FAIL).
func (rd *reading) unnamedTimestamp(f *file) {
	tok := rd.token(f)
	if tok == nil {
		return
	}
	ts := Timestamp{Name: f.name}
	ts.Timestamp = cades.TimestampEvidence(ades.ContentTimestamp, tok, errNoManifest, rd.doc.Certificates)
	ts.Document = true
	ts.Problems = []ades.Problem{ades.Say(CodeManifestMissing, "timestamp", fmt.Sprintf("no readable ASiCManifest names the time-stamp %s", f.name),
		verdict.TextParam("Name", f.name)).Failure()}
	rd.c.Timestamps = append(rd.c.Timestamps, ts)
}

// archiveTimestamps reads the time-stamps of the ASiCArchiveManifests,
// byRef by the time-stamp their SigReference names (EN 319 162-1,
// 4.4.3.2 and A.5): each is an archive time-stamp of the signatures whose
// files the manifest names.
func (rd *reading) archiveTimestamps(byRef map[string][]*manifest) {
	for _, f := range rd.tokens {
		for _, m := range byRef[f.name] {
			tok := rd.token(f)
			if tok == nil {
				break
			}
			ts := cades.TimestampEvidence(ades.ArchiveTimestamp, tok, tok.CheckImprint(m.data), rd.doc.Certificates)
			covers := rd.entries(nil, m)
			var bad []string
			for _, d := range covers {
				if !d.Found || !d.Intact {
					bad = append(bad, d.Name)
				}
			}
			for _, d := range covers {
				for i, origin := range rd.origin {
					if d.Name != origin || !d.Found {
						continue
					}
					sig := &rd.c.Signatures[i]
					sig.Timestamps = append(sig.Timestamps, ts)
					if sig.Level == ades.LevelLT {
						sig.Level = ades.LevelLTA
					}
					if len(bad) > 0 {
						sig.Problems = append(sig.Problems, ades.Say(CodeArchiveManifestEntry, "entries",
							fmt.Sprintf("%s: entries missing or altered: %s", m.name, strings.Join(bad, ", ")),
							verdict.TextParam("Manifest", m.name), verdict.TextParam("Entries", strings.Join(bad, ", "))))
					}
				}
			}
		}
	}
}

// add appends sig, read from the signature file origin, with an ID
// unique in the container.
func (rd *reading) add(origin string, sig ades.Signature) {
	rd.ids[sig.ID]++
	if n := rd.ids[sig.ID]; n > 1 {
		sig.ID = fmt.Sprintf("%s-%d", sig.ID, n)
		for i := range sig.CounterSignatures {
			sig.CounterSignatures[i].CounterSignatureOf = sig.ID
		}
	}
	rd.c.Signatures = append(rd.c.Signatures, sig)
	rd.origin = append(rd.origin, origin)
}

// finish makes the data objects name container files rather than
// detached parts of the upload, warns of the files no signature covers,
// and gives every signature the container's findings.
func (rd *reading) finish() {
	covered := map[string]bool{}
	for i := range rd.c.Signatures {
		unpart(&rd.c.Signatures[i])
		for _, d := range rd.c.Signatures[i].DataObjects {
			if d.Found {
				covered[d.Name] = true
			}
		}
	}
	if len(rd.c.Signatures) > 0 {
		for _, f := range rd.data {
			if !covered[f.name] {
				rd.say(false, ades.Say(CodeFileNotSigned, "file", fmt.Sprintf("the container file %q is covered by no signature", f.name), verdict.QuotedParam("File", f.name)))
			}
		}
	}
	for i := range rd.c.Signatures {
		sig := &rd.c.Signatures[i]
		sig.Problems = append(sig.Problems, rd.c.Problems...)
		contain(sig, rd.c.Type.String())
	}
}

// contain names the container sig and its counter-signatures came from.
func contain(sig *ades.Signature, container string) {
	sig.Container = container
	for i := range sig.CounterSignatures {
		contain(&sig.CounterSignatures[i], container)
	}
}

// unpart clears the detached-part positions the inner readers gave: the
// parts were container files, not parts of the upload.
func unpart(sig *ades.Signature) {
	for i := range sig.DataObjects {
		sig.DataObjects[i].Part = 0
	}
	for i := range sig.CounterSignatures {
		unpart(&sig.CounterSignatures[i])
	}
}

// truncate shortens attacker-controlled text quoted in a message.
func truncate(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
