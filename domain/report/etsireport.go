package report

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
)

// ETSI returns the validation report of ETSI TS 119 102-2 V1.4.1 for v,
// an XML document in ETSINamespace valid against the standard's schema:
// one SignatureValidationReport per signature, in the summary's order,
// and the SignatureValidationObjects they refer to (certificates of the
// signer's and the TSAs' paths, the revocation data and time-stamps the
// process used, the signed data), each with its DER in base64 and its
// proof of existence. docs/decisions/0025 says what each element holds
// and what the report leaves out.
//
// Indications, sub-indications, qualifications and messages come from
// v.Summary; the rest from what the process recorded. ETSI fails when
// v's details are not those of its summary (ErrInconsistent), for a
// document without signatures (ErrNoSignature: the schema requires one
// SignatureValidationReport), and for a verdict value the standard's
// vocabulary cannot spell. A document's time-stamp entries are not in it
// (docs/decisions/0032): they are in the detailed report.
func ETSI(v Validation) ([]byte, error) {
	if err := v.check(); err != nil {
		return nil, err
	}
	if len(v.Signatures) == 0 {
		return nil, ErrNoSignature
	}
	b := &etsiBuilder{vt: v.ValidationTime, seen: map[string]bool{}}
	doc := vReport{}
	for i, s := range v.Signatures {
		r, err := b.signature(s, v.Summary.Signatures[i])
		if err != nil {
			return nil, err
		}
		if pn := v.Summary.ValidationPolicy; pn != nil {
			c, err := constraintsReport(*pn)
			if err != nil {
				return nil, err
			}
			r.Constraints = c
		}
		if snap := v.Summary.TrustData.Snapshot; snap != nil {
			r.Process.Other = &vOtherInfo{Snapshot: vTrustSnapshot{SHA256: snap.SHA256}}
		}
		doc.Signatures = append(doc.Signatures, r)
	}
	if len(b.objects) > 0 {
		doc.Objects = &vObjects{Objects: b.objects}
	}
	return document(doc, "ETSI report")
}

// The elements of TS 119 102-2 the report writes, in the schema's order.
type (
	vReport struct {
		XMLName    xml.Name           `xml:"http://uri.etsi.org/19102/v1.4.1# ValidationReport"`
		Signatures []vSignatureReport `xml:"SignatureValidationReport"`
		Objects    *vObjects          `xml:"SignatureValidationObjects"`
	}
	vSignatureReport struct {
		Identifier        *vSignatureID     `xml:"SignatureIdentifier"`
		Constraints       *vConstraints     `xml:"ValidationConstraintsEvaluationReport"`
		TimeInfo          *vTimeInfo        `xml:"ValidationTimeInfo"`
		SignersDocument   *vSignersDocument `xml:"SignersDocument"`
		Attributes        *vAttributes      `xml:"SignatureAttributes"`
		SignerInformation *vSignerInfo      `xml:"SignerInformation"`
		Quality           *vQuality         `xml:"SignatureQuality"`
		Process           *vProcess         `xml:"SignatureValidationProcess"`
		Status            vStatus           `xml:"SignatureValidationStatus"`
	}
	vSignatureID struct {
		ID           string `xml:"id,attr,omitempty"`
		HashOnly     bool   `xml:"HashOnly"`
		DocHashOnly  bool   `xml:"DocHashOnly"`
		DAIdentifier string `xml:"DAIdentifier,omitempty"`
	}
	vTimeInfo struct {
		ValidationTime    string `xml:"ValidationTime"`
		BestSignatureTime vPOE   `xml:"BestSignatureTime"`
	}
	vPOE struct {
		Time        string `xml:"POETime"`
		TypeOfProof string `xml:"TypeOfProof"`
		Object      *vRef  `xml:"POEObject"`
	}
	vRef struct {
		IDs string `xml:"VOReference,attr"`
	}
	vSignersDocument struct {
		Digest vDigest `xml:"DigestAlgAndValue"`
		Ref    *vRef   `xml:"SignersDocumentRef"`
	}
	vDigest struct {
		Method struct {
			Algorithm string `xml:"Algorithm,attr"`
		} `xml:"http://www.w3.org/2000/09/xmldsig# DigestMethod"`
		Value string `xml:"http://www.w3.org/2000/09/xmldsig# DigestValue"` // base64
	}
	vAttributes struct {
		SigningTime             *vSigningTime `xml:"SigningTime"`
		AllDataObjectsTimeStamp []vTimestamp  `xml:"AllDataObjectsTimeStamp"`
		CounterSignature        []vCounter    `xml:"CounterSignature"`
		SignatureTimeStamp      []vTimestamp  `xml:"SignatureTimeStamp"`
		ArchiveTimeStamp        []vTimestamp  `xml:"ArchiveTimeStamp"`
		DocTimeStamp            []vTimestamp  `xml:"DocTimeStamp"`
		Reason                  *vText        `xml:"Reason"`
		ContactInfo             *vContact     `xml:"ContactInfo"`
	}
	vSigningTime struct {
		Signed bool   `xml:"Signed,attr"`
		Time   string `xml:"Time"`
	}
	vTimestamp struct {
		Signed  bool   `xml:"Signed,attr"`
		Objects []vRef `xml:"AttributeObject"`
		Value   string `xml:"TimeStampValue"`
	}
	// vCounter is a counter-signature of the signature (A.11): its
	// report, by the id of its SignatureIdentifier, and a reference to
	// it by the digest of its signature value.
	vCounter struct {
		Signed    bool          `xml:"Signed,attr"`
		Objects   []vRef        `xml:"AttributeObject"`
		Reference vSignatureRef `xml:"CounterSignature"`
	}
	// vSignatureRef is a SignatureReferenceType; empty when the reader
	// kept no signature value.
	vSignatureRef struct {
		DigestMethod string `xml:"DigestMethod,omitempty"`
		DigestValue  string `xml:"DigestValue,omitempty"`
	}
	vText struct {
		Signed bool   `xml:"Signed,attr"`
		Text   string `xml:"ReasonElement"`
	}
	vContact struct {
		Signed bool   `xml:"Signed,attr"`
		Text   string `xml:"ContactInfoElement"`
	}
	vSignerInfo struct {
		Certificate vRef   `xml:"SignerCertificate"`
		Signer      string `xml:"Signer,omitempty"`
	}
	vQuality struct {
		Information []string `xml:"SignatureQualityInformation"`
	}
	vProcess struct {
		ID    string      `xml:"SignatureValidationProcessID"`
		Other *vOtherInfo `xml:"OtherInformation"`
	}
	// vOtherInfo is the process's OtherInformation (any content): the
	// trust snapshot the signature was judged against, as in the
	// detailed report, so that both reports name the same trust data.
	vOtherInfo struct {
		Snapshot vTrustSnapshot `xml:"urn:svc-dss:validation:detailed-report:1 TrustSnapshot"`
	}
	vTrustSnapshot struct {
		SHA256 string `xml:"SHA256,attr"`
	}
	vStatus struct {
		MainIndication string        `xml:"MainIndication"`
		SubIndication  []string      `xml:"SubIndication"`
		Data           []vReportData `xml:"AssociatedValidationReportData"`
	}
	vReportData struct {
		TrustAnchor      *vRef        `xml:"TrustAnchor"`
		CertificateChain *vChain      `xml:"CertificateChain"`
		Related          []vRef       `xml:"RelatedValidationObject"`
		Revocation       *vRevocation `xml:"RevocationStatusInformation"`
		Additional       *vAdditional `xml:"AdditionalValidationReportData"`
	}
	vChain struct {
		Signing      vRef   `xml:"SigningCertificate"`
		Intermediate []vRef `xml:"IntermediateCertificate"`
		TrustAnchor  *vRef  `xml:"TrustAnchor"`
	}
	vRevocation struct {
		Certificate vRef   `xml:"ValidationObjectId"`
		Time        string `xml:"RevocationTime"`
		Reason      string `xml:"RevocationReason,omitempty"`
		Object      *vRef  `xml:"RevocationObject"`
	}
	vAdditional struct {
		Data []vTyped `xml:"ReportData"`
	}
	vTyped struct {
		Type  string `xml:"Type"`
		Value string `xml:"Value"`
	}
	vObjects struct {
		Objects []vObject `xml:"ValidationObject"`
	}
	vObject struct {
		ID             string            `xml:"id,attr"`
		Type           string            `xml:"ObjectType"`
		Representation vRepresentation   `xml:"ValidationObjectRepresentation"`
		POE            *vPOE             `xml:"POE"`
		Report         *vSignatureReport `xml:"ValidationReport"`
	}
	vRepresentation struct {
		Base64 string   `xml:"base64,omitempty"`
		Digest *vDigest `xml:"DigestAlgAndValue"`
	}
)

// etsiBuilder gathers the validation objects of a report, each once.
// vConstraints names the validation policy the signature was validated
// under (TS 119 102-2, 4.3.2: SignatureValidationPolicy): its
// identifier is a URN of its name, its hash the SHA-256 of its
// document, as XAdES identifies a signature policy.
type vConstraints struct {
	Policy struct {
		Identifier struct {
			ID struct {
				SigPolicyID struct {
					Identifier string `xml:"http://uri.etsi.org/01903/v1.3.2# Identifier"`
				} `xml:"http://uri.etsi.org/01903/v1.3.2# SigPolicyId"`
				Hash struct {
					Method struct {
						Algorithm string `xml:"Algorithm,attr"`
					} `xml:"http://www.w3.org/2000/09/xmldsig# DigestMethod"`
					Value string `xml:"http://www.w3.org/2000/09/xmldsig# DigestValue"`
				} `xml:"http://uri.etsi.org/01903/v1.3.2# SigPolicyHash"`
			} `xml:"http://uri.etsi.org/01903/v1.3.2# SignaturePolicyId"`
		} `xml:"SignaturePolicyIdentifier"`
		Name string `xml:"PolicyName"`
	} `xml:"SignatureValidationPolicy"`
}

// PolicyURN is the identifier of a validation policy in the ETSI report.
const PolicyURN = "urn:svc-dss:validation-policy:"

func constraintsReport(pn verdict.PolicyName) (*vConstraints, error) {
	digest, err := hex.DecodeString(pn.SHA256)
	if err != nil {
		return nil, fmt.Errorf("report: the policy's SHA-256 %q: %w", pn.SHA256, err)
	}
	var c vConstraints
	c.Policy.Identifier.ID.SigPolicyID.Identifier = PolicyURN + pn.Name
	c.Policy.Identifier.ID.Hash.Method.Algorithm = "http://www.w3.org/2001/04/xmlenc#sha256"
	c.Policy.Identifier.ID.Hash.Value = base64.StdEncoding.EncodeToString(digest)
	c.Policy.Name = pn.Name
	return &c, nil
}

type etsiBuilder struct {
	vt      time.Time
	objects []vObject
	seen    map[string]bool
}

// add adds o unless an object of its id is there; it returns the id.
func (b *etsiBuilder) add(o vObject) string {
	if !b.seen[o.ID] {
		b.seen[o.ID] = true
		b.objects = append(b.objects, o)
	}
	return o.ID
}

// heldPOE is the proof of existence of an object the validator held: the
// validation time.
func (b *etsiBuilder) heldPOE() *vPOE { return &vPOE{Time: xmlTime(b.vt), TypeOfProof: poeValidation} }

func (b *etsiBuilder) certificate(c *x509.Certificate) string {
	return b.add(vObject{ID: certificateID(c), Type: objectType + "certificate",
		Representation: vRepresentation{Base64: base64.StdEncoding.EncodeToString(c.Raw)}, POE: b.heldPOE()})
}

// fact adds the data of a revocation fact; "" when its bytes were not
// kept.
func (b *etsiBuilder) fact(f revocation.Fact) string {
	if len(f.Raw) == 0 {
		return ""
	}
	kind, prefix := "CRL", "CRL-"
	if f.Source == revocation.OCSP {
		kind, prefix = "OCSPResponse", "OCSP-"
	}
	return b.add(vObject{ID: prefix + digestHex(f.Raw), Type: objectType + kind,
		Representation: vRepresentation{Base64: base64.StdEncoding.EncodeToString(f.Raw)}, POE: b.heldPOE()})
}

// chain adds the certificates of p and returns its chain and anchor.
func (b *etsiBuilder) chain(p *certpath.Path) (*vChain, *vRef) {
	if p == nil || len(p.Certificates) == 0 {
		return nil, nil
	}
	// A path ends at its anchor (certpath); a trusted leaf is both.
	var ids []string
	for _, c := range p.Certificates {
		ids = append(ids, b.certificate(c))
	}
	anchor := &vRef{ids[len(ids)-1]}
	ch := &vChain{Signing: vRef{ids[0]}, TrustAnchor: anchor}
	for i := 1; i < len(ids)-1; i++ {
		ch.Intermediate = append(ch.Intermediate, vRef{ids[i]})
	}
	return ch, anchor
}

func (b *etsiBuilder) signature(s Signature, sum verdict.SignatureReport) (vSignatureReport, error) {
	sig, r := s.Evidence, s.Result
	out := vSignatureReport{
		Identifier: &vSignatureID{ID: ncName(sum.SignatureID)},
		Process:    &vProcess{ID: processLTA},
	}
	if p := sig.Placement; p != nil {
		out.Identifier.DAIdentifier = p.Name
	}

	// Time-stamps first: the signature's proof of existence refers to
	// one, and each refers to the archive time-stamp protecting it.
	tsIDs := make([]string, len(sig.Timestamps))
	for i, ts := range sig.Timestamps {
		if len(ts.Token) > 0 {
			tsIDs[i] = "T-" + digestHex(ts.Token)
		}
	}
	bestAt := -1
	var related []vRef
	for _, tv := range r.TimestampValidations {
		id := tsIDs[tv.Index]
		if tv.Best {
			bestAt = tv.Index
		}
		if id == "" {
			continue
		}
		rep, err := b.timestampReport(sig.Timestamps[tv.Index], tv)
		if err != nil {
			return vSignatureReport{}, err
		}
		poe := &vPOE{Time: xmlTime(tv.Control), TypeOfProof: poeValidation}
		if tv.ProtectedBy >= 0 && tsIDs[tv.ProtectedBy] != "" {
			poe.Object = &vRef{tsIDs[tv.ProtectedBy]}
		}
		b.add(vObject{ID: id, Type: objectType + "timestamp", Representation: vRepresentation{Base64: base64.StdEncoding.EncodeToString(sig.Timestamps[tv.Index].Token)}, POE: poe, Report: rep})
		related = append(related, vRef{id})
	}

	best := vPOE{Time: xmlTime(r.BestSignatureTime), TypeOfProof: poeValidation}
	if bestAt >= 0 && tsIDs[bestAt] != "" {
		best.Object = &vRef{tsIDs[bestAt]}
	}
	out.TimeInfo = &vTimeInfo{ValidationTime: xmlTime(b.vt), BestSignatureTime: best}

	// The signer's document: the digests the signature covers.
	var first *vDigest
	var docs []string
	for _, d := range sig.DataObjects {
		dv, ok := digest(d.DigestAlgorithm, d.Digest)
		if !ok {
			continue
		}
		if first == nil {
			first = dv
		}
		docs = append(docs, b.add(vObject{ID: "D-" + digestHex(append([]byte(dv.Method.Algorithm+" "), d.Digest...)),
			Type: objectType + "signedData", Representation: vRepresentation{Digest: dv}, POE: b.heldPOE()}))
	}
	if first != nil {
		out.SignersDocument = &vSignersDocument{Digest: *first, Ref: &vRef{strings.Join(docs, " ")}}
	}

	out.Attributes = attributes(sig, tsIDs)

	if c := sig.SigningCertificate; c != nil {
		out.SignerInformation = &vSignerInfo{Certificate: vRef{b.certificate(c)}, Signer: c.Subject.String()}
	}
	quality, err := qualityURIs(sum)
	if err != nil {
		return vSignatureReport{}, err
	}
	if len(quality) > 0 {
		out.Quality = &vQuality{Information: quality}
	}

	main, err := indicationURI(sum.Indication)
	if err != nil {
		return vSignatureReport{}, err
	}
	out.Status.MainIndication = main
	if sum.SubIndication != nil {
		out.Status.SubIndication = []string{subIndicationURI(*sum.SubIndication)}
	}
	data := vReportData{Related: related}
	data.CertificateChain, data.TrustAnchor = b.chain(r.Path)
	for _, f := range r.Revocation {
		if id := b.fact(f); id != "" && !slices.Contains(data.Related, vRef{id}) {
			data.Related = append(data.Related, vRef{id})
		}
	}
	data.Revocation = b.revoked(r)
	data.Additional = additional(sum.Errors, sum.Warnings)
	if !data.empty() {
		out.Status.Data = []vReportData{data}
	}
	return out, nil
}

// timestampReport is the validation report of a time-stamp, nested in
// its validation object: the TSA, its proof of existence and the
// conclusion of its validation (5.4).
func (b *etsiBuilder) timestampReport(ts ades.Timestamp, tv etsi.TimestampValidation) (*vSignatureReport, error) {
	main, err := indicationURI(tv.Conclusion.Indication)
	if err != nil {
		return nil, err
	}
	rep := &vSignatureReport{
		TimeInfo: &vTimeInfo{ValidationTime: xmlTime(b.vt), BestSignatureTime: vPOE{Time: xmlTime(tv.Control), TypeOfProof: poeValidation}},
		Status:   vStatus{MainIndication: main},
	}
	if tv.Conclusion.SubIndication != "" {
		rep.Status.SubIndication = []string{subIndicationURI(tv.Conclusion.SubIndication)}
	}
	if c := ts.TSACertificate; c != nil {
		rep.SignerInformation = &vSignerInfo{Certificate: vRef{b.certificate(c)}, Signer: c.Subject.String()}
	}
	var data vReportData
	data.CertificateChain, data.TrustAnchor = b.chain(tv.Path)
	data.Additional = additional(tv.Conclusion.Errors, tv.Conclusion.Warnings)
	if !data.empty() {
		rep.Status.Data = []vReportData{data}
	}
	return rep, nil
}

func (d vReportData) empty() bool {
	return d.TrustAnchor == nil && d.CertificateChain == nil && len(d.Related) == 0 && d.Revocation == nil && d.Additional == nil
}

// revoked is the revocation status of the first certificate of the
// chosen path (signer first) that a fact the process used says was
// revoked at or before the validation time, at its earliest such
// revocation, as XCV judged it; nil when none was.
func (b *etsiBuilder) revoked(r etsi.Result) *vRevocation {
	if r.Path == nil {
		return nil
	}
	for _, c := range r.Path.Certificates {
		var at *revocation.Fact
		for i, f := range r.Revocation {
			if f.Status == revocation.Revoked && f.Certificate != nil && f.Certificate.Equal(c) && !f.RevokedAt.After(b.vt) &&
				(at == nil || f.RevokedAt.Before(at.RevokedAt)) {
				at = &r.Revocation[i]
			}
		}
		if at == nil {
			continue
		}
		rs := &vRevocation{Certificate: vRef{b.certificate(c)}, Time: xmlTime(at.RevokedAt)}
		if name, ok := revocationReasons[at.Reason]; ok {
			rs.Reason = revocationReason + name
		}
		if id := b.fact(*at); id != "" {
			rs.Object = &vRef{id}
		}
		return rs
	}
	return nil
}

// attributes are the signature's attributes the evidence keeps: the
// claimed signing time, its time-stamps, its counter-signatures and the
// reason and contact information its placement claims.
func attributes(sig ades.Signature, tsIDs []string) *vAttributes {
	a := &vAttributes{}
	empty := true
	if !sig.ClaimedSigningTime.IsZero() {
		a.SigningTime, empty = &vSigningTime{Signed: true, Time: xmlTime(sig.ClaimedSigningTime)}, false
	}
	for i, ts := range sig.Timestamps {
		x := vTimestamp{Signed: ts.Type == ades.ContentTimestamp, Value: xmlTime(ts.GenTime)}
		if tsIDs[i] != "" {
			x.Objects = []vRef{{tsIDs[i]}}
		}
		switch timestampAttribute(ts) {
		case "AllDataObjectsTimeStamp":
			a.AllDataObjectsTimeStamp = append(a.AllDataObjectsTimeStamp, x)
		case "SignatureTimeStamp":
			a.SignatureTimeStamp = append(a.SignatureTimeStamp, x)
		case "ArchiveTimeStamp":
			a.ArchiveTimeStamp = append(a.ArchiveTimeStamp, x)
		case "DocTimeStamp":
			a.DocTimeStamp = append(a.DocTimeStamp, x)
		default:
			continue
		}
		empty = false
	}
	for _, c := range sig.CounterSignatures {
		a.CounterSignature, empty = append(a.CounterSignature, counterSignature(c)), false
	}
	if p := sig.Placement; p != nil {
		// Claims beside the signature, which it does not sign (a PDF
		// signature dictionary, ISO 32000-2, 12.8.1).
		if p.Reason != "" {
			a.Reason, empty = &vText{Text: p.Reason}, false
		}
		if p.ContactInfo != "" {
			a.ContactInfo, empty = &vContact{Text: p.ContactInfo}, false
		}
	}
	if empty {
		return nil
	}
	return a
}

// counterSignature is the CounterSignature attribute of c, a
// counter-signature, in its parent's report, as DSS writes it: an
// unsigned attribute whose AttributeObject names c's own
// SignatureValidationReport by its SignatureIdentifier id (it is in the
// same report, after its parent's), and whose SignatureReference is the
// SHA-256 of c's signature value, which identifies c whatever its format.
func counterSignature(c ades.Signature) vCounter {
	x := vCounter{}
	if id := ncName(c.ID); id != "" {
		x.Objects = []vRef{{id}}
	}
	if len(c.SignatureValue) > 0 {
		sum := sha256.Sum256(c.SignatureValue)
		x.Reference = vSignatureRef{DigestMethod: digestURIs["SHA-256"], DigestValue: base64.StdEncoding.EncodeToString(sum[:])}
	}
	return x
}

// additional carries a conclusion's errors and warnings as report data,
// "CODE: message"; nil without any.
func additional(errs, warnings []verdict.Message) *vAdditional {
	var data []vTyped
	for _, m := range errs {
		data = append(data, vTyped{Type: reportDataError, Value: m.Code + ": " + m.Message})
	}
	for _, m := range warnings {
		data = append(data, vTyped{Type: reportDataWarning, Value: m.Code + ": " + m.Message})
	}
	if len(data) == 0 {
		return nil
	}
	return &vAdditional{Data: data}
}

// digest is a DigestAlgAndValue; false when the algorithm has no XML URI
// or there is no digest.
func digest(algorithm string, value []byte) (*vDigest, bool) {
	uri, ok := digestURIs[algorithm]
	if !ok || len(value) == 0 {
		return nil, false
	}
	d := &vDigest{Value: base64.StdEncoding.EncodeToString(value)}
	d.Method.Algorithm = uri
	return d, true
}

// ncName returns s when it is an XML NCName (an xs:ID), else "".
func ncName(s string) string {
	for i, r := range s {
		letter := r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= 0xC0 && r != 0xD7 && r != 0xF7
		if !letter && (i == 0 || r != '-' && r != '.' && (r < '0' || r > '9') && r != 0xB7) {
			return ""
		}
	}
	return s
}
