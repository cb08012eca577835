package report

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// DetailedNamespace is the namespace of the detailed report, whose schema
// is docs/detailed-report.xsd.
const DetailedNamespace = "urn:svc-dss:validation:detailed-report:1"

// Detailed returns the detailed report of v, an XML document in
// DetailedNamespace: per signature, the building blocks of EN 319 102-1
// as the process ran them (FC, ISC, CV, SAV, XCV), each time-stamp's
// validation, the basic and long-term validation processes, each with
// the checks run (name, status, message) and its conclusion, then the
// qualification and the conclusion of the summary; per time-stamp entry
// of the document (docs/decisions/0032), its checks, the TSA's path and
// qualification and the summary's conclusion.
//
// The verdicts (indications, sub-indications, format, qualification,
// errors and warnings of each signature) are copied from v.Summary; the
// building blocks and stages are what the process recorded
// (etsi.Result). Detailed fails only when v's details are not those of
// its summary (ErrInconsistent).
func Detailed(v Validation) ([]byte, error) {
	if err := v.check(); err != nil {
		return nil, err
	}
	sum := v.Summary
	doc := xDetailed{
		ValidationTime: xmlTime(v.ValidationTime),
		Document:       xDocument{Name: sum.DocumentName, SHA256: sum.DocumentSHA256, SignatureCount: sum.SignatureCount, Valid: sum.Valid},
		Snapshot:       detailedSnapshot(sum.TrustData.Snapshot),
	}
	if pn := sum.ValidationPolicy; pn != nil {
		doc.Policy = &xPolicy{Name: pn.Name, SHA256: pn.SHA256}
	}
	for i, s := range v.Signatures {
		doc.Signatures = append(doc.Signatures, detailedSignature(s, sum.Signatures[i]))
	}
	for i, e := range v.Timestamps {
		doc.Timestamps = append(doc.Timestamps, detailedEntry(e, sum.Timestamps[i], v.ValidationTime))
	}
	return document(doc, "detailed report")
}

// detailedSnapshot is the trust snapshot's element, nil for none.
func detailedSnapshot(s *verdict.TrustSnapshot) *xSnapshot {
	if s == nil {
		return nil
	}
	x := &xSnapshot{SHA256: s.SHA256}
	for _, l := range s.Lists {
		x.Lists = append(x.Lists, xSnapshotList{Territory: l.Territory, Kind: l.Kind, SequenceNumber: l.SequenceNumber, SHA256: l.SHA256})
	}
	for _, a := range s.PrivateAnchors {
		x.Anchors = append(x.Anchors, xSnapshotAnchor{SHA256: a})
	}
	return x
}

// document writes root as an indented XML document with its declaration.
func document(root any, what string) ([]byte, error) {
	out, err := xml.MarshalIndent(root, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", what, err)
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

// The elements of the detailed report (docs/detailed-report.xsd).
type (
	xPolicy struct {
		Name   string `xml:"Name,attr"`
		SHA256 string `xml:"SHA256,attr"`
	}
	xDetailed struct {
		XMLName        xml.Name     `xml:"urn:svc-dss:validation:detailed-report:1 DetailedReport"`
		ValidationTime string       `xml:"ValidationTime"`
		Document       xDocument    `xml:"Document"`
		Snapshot       *xSnapshot   `xml:"TrustSnapshot"`
		Policy         *xPolicy     `xml:"ValidationPolicy"`
		Signatures     []xSignature `xml:"Signature"`
		Timestamps     []xEntry     `xml:"TimestampEntry"`
	}
	xEntry struct {
		ID               string        `xml:"Id,attr"`
		Name             string        `xml:"Name,attr"`
		Container        string        `xml:"Container,attr,omitempty"`
		Title            string        `xml:"Title,attr"`
		Clause           string        `xml:"Clause,attr"`
		GenerationTime   string        `xml:"GenerationTime"`
		ControlTime      string        `xml:"ControlTime"`
		Qualification    xTSQual       `xml:"Qualification"`
		TimestampedData  []string      `xml:"TimestampedData"`
		Constraints      []xConstraint `xml:"Constraint"`
		Conclusion       xConclusion   `xml:"Conclusion"`
		CertificateChain *xChain       `xml:"CertificateChain"`
	}
	xSnapshot struct {
		SHA256  string            `xml:"SHA256,attr"`
		Lists   []xSnapshotList   `xml:"List"`
		Anchors []xSnapshotAnchor `xml:"PrivateAnchor"`
	}
	xSnapshotList struct {
		Territory      string `xml:"Territory,attr"`
		Kind           string `xml:"Kind,attr"`
		SequenceNumber int    `xml:"SequenceNumber,attr"`
		SHA256         string `xml:"SHA256,attr"`
	}
	xSnapshotAnchor struct {
		SHA256 string `xml:"SHA256,attr"`
	}
	xDocument struct {
		Name           string `xml:"Name,attr"`
		SHA256         string `xml:"SHA256,attr"`
		SignatureCount int    `xml:"SignatureCount,attr"`
		Valid          bool   `xml:"Valid,attr"`
	}
	xSignature struct {
		ID     string `xml:"Id,attr"`
		Format string `xml:"Format,attr"`
		// CounterSignatureOf is the Id of the signature a
		// counter-signature counter-signs; absent for a signature of the
		// document.
		CounterSignatureOf string         `xml:"CounterSignatureOf,attr,omitempty"`
		Placement          *xPlacement    `xml:"PDF"`
		BuildingBlocks     xBlocks        `xml:"BuildingBlocks"`
		Timestamps         []xTimestamp   `xml:"Timestamp"`
		Basic              xProcess       `xml:"BasicValidation"`
		LongTerm           *xLongTerm     `xml:"LongTermValidation"`
		Qualification      xQualification `xml:"Qualification"`
		Conclusion         xConclusion    `xml:"Conclusion"`
	}
	// xPlacement is a signature's placement (ades.Placement), whatever
	// its kind, under the element name it was published with.
	xPlacement struct {
		Field               string `xml:"Field,attr"`
		Revision            int    `xml:"Revision,attr"`
		CoversWholeDocument bool   `xml:"CoversWholeDocument,attr"`
	}
	xBlocks struct {
		FC  *xBlock `xml:"FC"`
		ISC *xBlock `xml:"ISC"`
		CV  *xBlock `xml:"CV"`
		SAV *xBlock `xml:"SAV"`
		XCV *xBlock `xml:"XCV"`
	}
	xBlock struct {
		Title       string        `xml:"Title,attr"`
		Clause      string        `xml:"Clause,attr"`
		Constraints []xConstraint `xml:"Constraint"`
		Conclusion  xConclusion   `xml:"Conclusion"`
		// SigningCertificate (ISC) and CertificateChain (XCV).
		SigningCertificate *xCertificate `xml:"SigningCertificate"`
		CertificateChain   *xChain       `xml:"CertificateChain"`
	}
	xProcess struct {
		Title       string        `xml:"Title,attr"`
		Clause      string        `xml:"Clause,attr"`
		Constraints []xConstraint `xml:"Constraint"`
		Conclusion  xConclusion   `xml:"Conclusion"`
	}
	xLongTerm struct {
		xProcess
		ProofOfExistence xPOE `xml:"ProofOfExistence"`
	}
	xPOE struct {
		Time string `xml:"Time"`
		// Timestamp is the Id of the time-stamp that gives it; absent
		// when the proof is the validation time.
		Timestamp string `xml:"Timestamp,omitempty"`
	}
	xTimestamp struct {
		ID                string        `xml:"Id,attr"`
		Position          int           `xml:"Position,attr"`
		Type              string        `xml:"Type,attr"`
		BestSignatureTime bool          `xml:"BestSignatureTime,attr"`
		Title             string        `xml:"Title,attr"`
		Clause            string        `xml:"Clause,attr"`
		GenerationTime    string        `xml:"GenerationTime"`
		ControlTime       string        `xml:"ControlTime"`
		ProtectedBy       string        `xml:"ProtectedBy,omitempty"`
		Qualification     *xTSQual      `xml:"Qualification"`
		Constraints       []xConstraint `xml:"Constraint"`
		Conclusion        xConclusion   `xml:"Conclusion"`
		CertificateChain  *xChain       `xml:"CertificateChain"`
	}
	xTSQual struct {
		TrustFramework string `xml:"TrustFramework,attr"`
		AnchorCountry  string `xml:"AnchorCountry,attr,omitempty"`
		Value          string `xml:",chardata"`
	}
	xConstraint struct {
		Name    string `xml:"Name"`
		Status  string `xml:"Status"`
		Code    string `xml:"Code,omitempty"`
		Message string `xml:"Message,omitempty"`
	}
	xConclusion struct {
		Indication    verdict.Indication    `xml:"Indication"`
		SubIndication verdict.SubIndication `xml:"SubIndication,omitempty"`
		Errors        []xMessage            `xml:"Error"`
		Warnings      []xMessage            `xml:"Warning"`
	}
	xMessage struct {
		Code string `xml:"Code,attr"`
		Text string `xml:",chardata"`
	}
	xQualification struct {
		TrustFramework          string  `xml:"TrustFramework,attr"`
		AnchorCountry           string  `xml:"AnchorCountry,attr,omitempty"`
		AnchorDataAuthenticated bool    `xml:"AnchorDataAuthenticated,attr"`
		EIDAS                   *string `xml:"EIDAS"`
		Swiss                   *string `xml:"Swiss"`
		HandwrittenEquivalent   *bool   `xml:"HandwrittenEquivalent"`
	}
	xChain struct {
		TrustFramework string         `xml:"TrustFramework,attr"`
		Territory      string         `xml:"Territory,attr,omitempty"`
		Private        bool           `xml:"Private,attr"`
		Certificates   []xCertificate `xml:"Certificate"`
	}
	xCertificate struct {
		ID           string `xml:"Id,attr"`
		Anchor       bool   `xml:"Anchor,attr,omitempty"`
		Subject      string `xml:"Subject"`
		Issuer       string `xml:"Issuer"`
		SerialNumber string `xml:"SerialNumber"`
		NotBefore    string `xml:"NotBefore"`
		NotAfter     string `xml:"NotAfter"`
	}
)

// Titles and clauses of EN 319 102-1 for the parts of the process.
var blockTitles = map[etsi.BlockName][2]string{
	etsi.FC:  {"Format checking", "5.2.2"},
	etsi.ISC: {"Identification of the signing certificate", "5.2.3"},
	etsi.CV:  {"Cryptographic verification", "5.2.7"},
	etsi.SAV: {"Signature acceptance validation", "5.2.8"},
	etsi.XCV: {"X.509 certificate validation", "5.2.6"},
}

func detailedSignature(s Signature, sum verdict.SignatureReport) xSignature {
	r := s.Result
	out := xSignature{
		ID:                 sum.SignatureID,
		Format:             sum.SignatureFormat,
		CounterSignatureOf: sum.CounterSignatureOf,
		Basic: xProcess{
			Title: "Validation process for basic signatures", Clause: "5.3",
			Constraints: constraints(r.Basic.Checks), Conclusion: conclusion(r.Basic.Conclusion),
		},
		Qualification: xQualification{
			TrustFramework: sum.TrustFramework, AnchorCountry: deref(sum.AnchorCountry), AnchorDataAuthenticated: sum.AnchorDataAuthenticated,
			EIDAS: sum.EIDASQualification, Swiss: sum.SwissQualification, HandwrittenEquivalent: sum.HandwrittenEquivalent,
		},
		Conclusion: xConclusion{Indication: sum.Indication, SubIndication: deref(sum.SubIndication), Errors: messages(sum.Errors), Warnings: messages(sum.Warnings)},
	}
	if p := s.Evidence.Placement; p != nil {
		out.Placement = &xPlacement{Field: p.Name, Revision: p.Revision, CoversWholeDocument: p.CoversWholeDocument}
	}
	for _, b := range r.Blocks {
		title := blockTitles[b.Name]
		xb := &xBlock{Title: title[0], Clause: title[1], Constraints: constraints(b.Checks), Conclusion: conclusion(b.Conclusion)}
		switch b.Name {
		case etsi.FC:
			out.BuildingBlocks.FC = xb
		case etsi.ISC:
			if c := s.Evidence.SigningCertificate; c != nil {
				xc := certificate(c)
				xb.SigningCertificate = &xc
			}
			out.BuildingBlocks.ISC = xb
		case etsi.CV:
			out.BuildingBlocks.CV = xb
		case etsi.SAV:
			out.BuildingBlocks.SAV = xb
		case etsi.XCV:
			xb.CertificateChain = chain(r.Path)
			out.BuildingBlocks.XCV = xb
		}
	}
	ids := timestampIDs(s.Evidence)
	quals := timestampQualifications(r, sum)
	best := ""
	for _, tv := range r.TimestampValidations {
		xt := xTimestamp{
			ID: ids[tv.Index], Position: tv.Index + 1, Type: tv.Type.String(), BestSignatureTime: tv.Best,
			Title: "Time-stamp validation", Clause: "5.4",
			GenerationTime: xmlTime(tv.GenTime), ControlTime: xmlTime(tv.Control),
			Qualification: quals[tv.Index],
			Constraints:   constraints(tv.Checks), Conclusion: conclusion(tv.Conclusion),
			CertificateChain: chain(tv.Path),
		}
		if tv.ProtectedBy >= 0 {
			xt.ProtectedBy = ids[tv.ProtectedBy]
		}
		if tv.Best {
			best = xt.ID
		}
		out.Timestamps = append(out.Timestamps, xt)
	}
	if lt := r.LongTerm; lt != nil {
		out.LongTerm = &xLongTerm{
			xProcess: xProcess{
				Title:       "Validation process for signatures with time and with long-term validation material (archive time-stamps included)",
				Clause:      "5.5 5.6",
				Constraints: constraints(lt.Checks), Conclusion: conclusion(lt.Conclusion),
			},
			ProofOfExistence: xPOE{Time: xmlTime(r.BestSignatureTime), Timestamp: best},
		}
	}
	return out
}

// detailedEntry is the report of one time-stamp entry: its checks as the
// process ran them, its verdict and qualification as the summary has them.
func detailedEntry(e TimestampEntry, sum verdict.TimestampEntryReport, vt time.Time) xEntry {
	r := e.Result
	conc := conclusion(r.Validation.Conclusion)
	conc.Indication, conc.SubIndication = sum.Indication, deref(sum.SubIndication)
	conc.Errors, conc.Warnings = messages(sum.Errors), messages(sum.Warnings)
	return xEntry{
		ID: sum.ID, Name: sum.Name, Container: deref(sum.Container),
		Title: "Time-stamp validation", Clause: "5.4",
		GenerationTime: xmlTime(r.GenTime), ControlTime: xmlTime(vt),
		Qualification:   xTSQual{TrustFramework: sum.TrustFramework, AnchorCountry: deref(sum.AnchorCountry), Value: sum.Qualification},
		TimestampedData: sum.TimestampedData,
		Constraints:     constraints(r.Validation.Checks), Conclusion: conc,
		CertificateChain: chain(r.Path),
	}
}

// timestampIDs names each time-stamp of sig: "T-" and the SHA-256 of its
// token, as the ETSI report names its validation object; "T-" and its
// position when the token was not kept.
func timestampIDs(sig ades.Signature) []string {
	ids := make([]string, len(sig.Timestamps))
	for i, ts := range sig.Timestamps {
		if len(ts.Token) == 0 {
			ids[i] = fmt.Sprintf("T-%s-%d", sig.ID, i+1)
			continue
		}
		ids[i] = "T-" + digestHex(ts.Token)
	}
	return ids
}

// timestampQualifications are the summary's qualifications of the valid
// time-stamps, by index in the signature's time-stamps. The summary lists
// them in generation order, as the process's Result.Timestamps; each is
// matched to the valid time-stamp of the same type and generation time.
func timestampQualifications(r etsi.Result, sum verdict.SignatureReport) map[int]*xTSQual {
	out := map[int]*xTSQual{}
	taken := make([]bool, len(sum.Timestamps))
	for _, tv := range r.TimestampValidations {
		if !tv.Valid {
			continue
		}
		for k, tr := range sum.Timestamps {
			if taken[k] || tr.Type != tv.Type.String() || !tr.GenerationTime.Equal(tv.GenTime) {
				continue
			}
			taken[k] = true
			out[tv.Index] = &xTSQual{TrustFramework: tr.TrustFramework, AnchorCountry: deref(tr.AnchorCountry), Value: tr.Qualification}
			break
		}
	}
	return out
}

func constraints(checks []etsi.Check) []xConstraint {
	out := make([]xConstraint, 0, len(checks))
	for _, c := range checks {
		out = append(out, xConstraint{Name: c.Name, Status: c.Status.String(), Code: c.Code, Message: c.Message})
	}
	return out
}

func conclusion(c etsi.Conclusion) xConclusion {
	return xConclusion{Indication: c.Indication, SubIndication: c.SubIndication, Errors: messages(c.Errors), Warnings: messages(c.Warnings)}
}

func messages(ms []verdict.Message) []xMessage {
	out := make([]xMessage, 0, len(ms))
	for _, m := range ms {
		out = append(out, xMessage{Code: m.Code, Text: m.Message})
	}
	return out
}

// chain is a path's certificates, signer or TSA first, and its anchor.
func chain(p *certpath.Path) *xChain {
	if p == nil {
		return nil
	}
	c := &xChain{TrustFramework: verdict.FrameworkUnknown, Private: p.Anchor.Private}
	if !p.Anchor.Private {
		switch p.Anchor.Framework {
		case trust.EUEIDAS:
			c.TrustFramework = verdict.FrameworkEUEIDAS
		case trust.CHZERTES:
			c.TrustFramework = verdict.FrameworkCHZertES
		}
		c.Territory = p.Anchor.Territory
	}
	for _, cert := range p.Certificates {
		xc := certificate(cert)
		xc.Anchor = p.Anchor.Certificate != nil && cert.Equal(p.Anchor.Certificate)
		c.Certificates = append(c.Certificates, xc)
	}
	return c
}

func certificate(c *x509.Certificate) xCertificate {
	return xCertificate{
		ID: certificateID(c), Subject: c.Subject.String(), Issuer: c.Issuer.String(), SerialNumber: c.SerialNumber.Text(16),
		NotBefore: xmlTime(c.NotBefore), NotAfter: xmlTime(c.NotAfter),
	}
}

// certificateID names a certificate in both reports: "C-" and the
// lower-case hex SHA-256 of its DER, as etsi.Key.
func certificateID(c *x509.Certificate) string { return "C-" + digestHex(c.Raw) }

func digestHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// xmlTime is t as an xs:dateTime in UTC.
func xmlTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
