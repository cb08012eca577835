package report_test

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/qualification"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
)

var vt = pki.ReferenceTime

var fixture = sync.OnceValues(func() (*pki.PKI, error) { return pki.New("http://127.0.0.1:9") })

func newPKI(t *testing.T) *pki.PKI {
	t.Helper()
	p, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// validation runs the process on each signature and summarises it as the
// application does, at vt, against the fixture root as an EU anchor.
func validation(t *testing.T, p *pki.PKI, sigs ...ades.Signature) report.Validation {
	t.Helper()
	anchors := certpath.NewAnchorSet([]certpath.Anchor{{Certificate: p.Root.Certificate, Framework: trust.EUEIDAS, Territory: "DE", Authenticated: true}})
	v := report.Validation{ValidationTime: vt}
	var reports []verdict.SignatureReport
	for _, sig := range sigs {
		in := etsi.Inputs{Anchors: anchors, Intermediates: []*x509.Certificate{p.Intermediate.Certificate}, Revocation: map[string][]revocation.Fact{}}
		for _, l := range etsi.Needs(sig, in) {
			f := revocation.Fact{Certificate: l.Cert, Issuer: l.Issuer, Source: revocation.CRL, Status: revocation.Good,
				ThisUpdate: vt.Add(-time.Hour), NextUpdate: vt.Add(24 * time.Hour), Signer: l.Issuer, Raw: []byte("CRL of " + l.Issuer.Subject.String())}
			if l.Cert.Equal(p.Revoked.Certificate) {
				f.Source, f.Status, f.RevokedAt, f.Reason, f.Raw = revocation.OCSP, revocation.Revoked, pki.RevocationTime, 1, []byte("OCSP about the revoked signer")
			}
			in.Revocation[etsi.Key(l.Cert)] = append(in.Revocation[etsi.Key(l.Cert)], f)
		}
		r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
		rep := etsi.Report(sig, r)
		qualification.OfSignature(sig, r, anchors).Apply(&rep)
		reports = append(reports, rep)
		v.Signatures = append(v.Signatures, report.Signature{Evidence: sig, Result: r})
	}
	v.Summary = verdict.Summarize("contract.p7m", sha256.Sum256([]byte("contract")), reports, verdict.TrustData{})
	return v
}

// signature is a CAdES-T signature by id, time-stamped at ts (none when
// zero).
func signature(id *pki.Identity, tsa *pki.Identity, ts time.Time) ades.Signature {
	sig := ades.Signature{
		ID: "S-" + strings.ToLower(strings.ReplaceAll(id.Certificate.Subject.CommonName, " ", "-")), Format: ades.CAdES, Level: ades.LevelB,
		DataObjects:        []ades.DataObject{{Name: "content", Found: true, Intact: true, DigestAlgorithm: "SHA-256", Digest: bytes.Repeat([]byte{7}, 32)}},
		Value:              ades.Check{Done: true, Valid: true, Algorithm: "RSA-SHA256"},
		SigningCertificate: id.Certificate,
		Reference:          ades.CertificateReference{Present: true, DigestMatched: true},
		ClaimedSigningTime: vt.Add(-24 * time.Hour),
		Certificates:       []*x509.Certificate{id.Certificate, id.Issuer.Certificate},
	}
	if !ts.IsZero() {
		sig.Level, sig.ClaimedSigningTime = ades.LevelT, ts.Add(-time.Minute)
		sig.Timestamps = []ades.Timestamp{{
			Type: ades.SignatureTimestamp, GenTime: ts,
			Imprint:        ades.Check{Done: true, Valid: true, Algorithm: "SHA-256"},
			Value:          ades.Check{Done: true, Valid: true, Algorithm: "RSA-SHA256"},
			TSACertificate: tsa.Certificate, Token: []byte("token at " + ts.String()),
		}}
	}
	return sig
}

// What the tests read back.
type (
	detailed struct {
		Signatures []struct {
			ID     string `xml:"Id,attr"`
			Format string `xml:"Format,attr"`
			Blocks struct {
				Blocks []struct {
					XMLName    xml.Name
					Conclusion conclusion `xml:"Conclusion"`
				} `xml:",any"`
			} `xml:"BuildingBlocks"`
			Timestamps []struct {
				ID         string     `xml:"Id,attr"`
				Conclusion conclusion `xml:"Conclusion"`
			} `xml:"Timestamp"`
			Basic    struct{ Conclusion conclusion } `xml:"BasicValidation"`
			LongTerm *struct {
				Conclusion       conclusion
				ProofOfExistence struct{ Time, Timestamp string }
			} `xml:"LongTermValidation"`
			Qualification struct {
				EIDAS *string `xml:"EIDAS"`
			} `xml:"Qualification"`
			Conclusion conclusion `xml:"Conclusion"`
		} `xml:"Signature"`
	}
	conclusion struct {
		Indication    verdict.Indication
		SubIndication verdict.SubIndication
		Errors        []message `xml:"Error"`
		Warnings      []message `xml:"Warning"`
	}
	message struct {
		Code string `xml:"Code,attr"`
		Text string `xml:",chardata"`
	}
)

func conclusionOf(c conclusion) string {
	if c.SubIndication == "" {
		return c.Indication.String()
	}
	return c.Indication.String() + "/" + c.SubIndication.String()
}

// TestDetailed: the detailed report carries the building blocks and
// stages the process recorded, and the summary's verdict and messages
// for each signature.
func TestDetailed(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	tsBefore := pki.RevocationTime.Add(-24 * time.Hour)
	tampered := signature(p.SignerRSA, nil, time.Time{})
	tampered.DataObjects[0].Intact = false
	tests := []struct {
		name     string
		sig      ades.Signature
		blocks   []string
		basic    string
		longTerm string // "" when absent
		final    string
		poe      bool // a time-stamp gives the proof of existence
	}{
		{"TOTAL_PASSED", signature(p.SignerRSA, nil, time.Time{}),
			[]string{"FC PASSED", "ISC PASSED", "CV PASSED", "SAV PASSED", "XCV PASSED"}, "TOTAL_PASSED", "TOTAL_PASSED", "TOTAL_PASSED", false},
		{"HASH_FAILURE stops at CV", tampered,
			[]string{"FC PASSED", "ISC PASSED", "CV FAILED/HASH_FAILURE"}, "TOTAL_FAILED/HASH_FAILURE", "", "TOTAL_FAILED/HASH_FAILURE", false},
		{"revoked signer without POE", signature(p.Revoked, nil, time.Time{}),
			[]string{"FC PASSED", "ISC PASSED", "CV PASSED", "SAV PASSED", "XCV INDETERMINATE/REVOKED_NO_POE"},
			"INDETERMINATE/REVOKED_NO_POE", "INDETERMINATE/REVOKED_NO_POE", "INDETERMINATE/REVOKED_NO_POE", false},
		{"revoked signer, time-stamped before the revocation", signature(p.Revoked, p.TSA, tsBefore),
			[]string{"FC PASSED", "ISC PASSED", "CV PASSED", "SAV PASSED", "XCV INDETERMINATE/REVOKED_NO_POE"},
			"INDETERMINATE/REVOKED_NO_POE", "TOTAL_PASSED", "TOTAL_PASSED", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			v := validation(t, p, tt.sig)
			out, err := report.Detailed(v)
			is.NoErr(err)
			is.True(bytes.HasPrefix(out, []byte(xml.Header)))
			is.True(bytes.Contains(out, []byte(`<DetailedReport xmlns="`+report.DetailedNamespace+`">`)))
			var d detailed
			is.NoErr(xml.Unmarshal(out, &d))
			is.Equal(len(d.Signatures), 1)
			s, sum := d.Signatures[0], v.Summary.Signatures[0]
			is.Equal(s.ID, sum.SignatureID)
			is.Equal(s.Format, sum.SignatureFormat)

			var blocks []string
			for _, b := range s.Blocks.Blocks {
				blocks = append(blocks, b.XMLName.Local+" "+conclusionOf(b.Conclusion))
			}
			is.Equal(blocks, tt.blocks)
			is.Equal(conclusionOf(s.Basic.Conclusion), tt.basic)
			if tt.longTerm == "" {
				is.True(s.LongTerm == nil)
			} else {
				is.Equal(conclusionOf(s.LongTerm.Conclusion), tt.longTerm)
				is.Equal(s.LongTerm.ProofOfExistence.Timestamp != "", tt.poe)
				if tt.poe {
					is.Equal(s.LongTerm.ProofOfExistence.Timestamp, s.Timestamps[0].ID) // the POE names its time-stamp
					is.Equal(s.LongTerm.ProofOfExistence.Time, tsBefore.Format(time.RFC3339))
				}
			}

			// The signature's conclusion is the summary's, messages included.
			is.Equal(conclusionOf(s.Conclusion), tt.final)
			is.Equal(s.Conclusion.Indication, sum.Indication)
			is.Equal(len(s.Conclusion.Errors), len(sum.Errors))
			is.Equal(len(s.Conclusion.Warnings), len(sum.Warnings))
			for i, w := range sum.Warnings {
				is.Equal(s.Conclusion.Warnings[i], message{Code: w.Code, Text: w.Message})
			}
			is.Equal(s.Qualification.EIDAS, sum.EIDASQualification)

			again, err := report.Detailed(v)
			is.NoErr(err)
			is.Equal(string(again), string(out)) // deterministic
		})
	}
}

// The parts of the ETSI report the tests read back.
type vr struct {
	Signatures []struct {
		Identifier struct {
			ID string `xml:"id,attr"`
		} `xml:"SignatureIdentifier"`
		TimeInfo struct {
			BestSignatureTime struct {
				POETime   string
				POEObject struct {
					Ref string `xml:"VOReference,attr"`
				}
			}
		} `xml:"ValidationTimeInfo"`
		Quality []string `xml:"SignatureQuality>SignatureQualityInformation"`
		Process string   `xml:"SignatureValidationProcess>SignatureValidationProcessID"`
		Status  struct {
			Main string   `xml:"MainIndication"`
			Sub  []string `xml:"SubIndication"`
			Data []struct {
				Revocation *struct {
					Certificate struct {
						Ref string `xml:"VOReference,attr"`
					} `xml:"ValidationObjectId"`
					Time   string `xml:"RevocationTime"`
					Reason string `xml:"RevocationReason"`
					Object struct {
						Ref string `xml:"VOReference,attr"`
					} `xml:"RevocationObject"`
				} `xml:"RevocationStatusInformation"`
				Additional []struct {
					Type, Value string
				} `xml:"AdditionalValidationReportData>ReportData"`
			} `xml:"AssociatedValidationReportData"`
		} `xml:"SignatureValidationStatus"`
	} `xml:"SignatureValidationReport"`
	Objects []struct {
		ID   string `xml:"id,attr"`
		Type string `xml:"ObjectType"`
	} `xml:"SignatureValidationObjects>ValidationObject"`
}

// TestETSI: the TS 119 102-2 report of two signatures, one passed by a
// time-stamp before its signer's revocation and one revoked without: the
// status URIs are the summary's, the best-signature-time names the
// time-stamp, the revocation is reported with its data, and every
// reference names a validation object present once.
func TestETSI(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	tsBefore := pki.RevocationTime.Add(-24 * time.Hour)
	passed := signature(p.Revoked, p.TSA, tsBefore)
	passed.ID = "S-passed"
	revoked := signature(p.Revoked, nil, time.Time{})
	v := validation(t, p, passed, revoked)
	out, err := report.ETSI(v)
	is.NoErr(err)
	is.True(bytes.Contains(out, []byte(`<ValidationReport xmlns="`+report.ETSINamespace+`">`)))
	var doc vr
	is.NoErr(xml.Unmarshal(out, &doc))
	is.Equal(len(doc.Signatures), 2)

	first, second := doc.Signatures[0], doc.Signatures[1]
	is.Equal(first.Identifier.ID, "S-passed")
	is.Equal(first.Status.Main, "urn:etsi:019102:mainindication:total-passed")
	is.Equal(len(first.Status.Sub), 0)
	is.Equal(first.Process, "urn:etsi:019102:validationprocess:LTA")
	is.Equal(first.TimeInfo.BestSignatureTime.POETime, tsBefore.Format(time.RFC3339))
	is.Equal(first.TimeInfo.BestSignatureTime.POEObject.Ref, "T-"+hexSHA256(passed.Timestamps[0].Token))
	is.Equal(len(first.Quality), 1) // the eIDAS qualification of an EU anchor
	is.True(strings.HasPrefix(first.Quality[0], "urn:cef:dss:signatureQualification:"))

	is.Equal(second.Status.Main, "urn:etsi:019102:mainindication:indeterminate")
	is.Equal(second.Status.Sub, []string{"urn:etsi:019102:subindication:REVOKED_NO_POE"})
	rev := second.Status.Data[0].Revocation
	is.True(rev != nil)
	is.Equal(rev.Certificate.Ref, "C-"+hexSHA256(p.Revoked.Certificate.Raw))
	is.Equal(rev.Time, pki.RevocationTime.Format(time.RFC3339))
	is.Equal(rev.Reason, "urn:etsi:019102:revocationReason:keyCompromise")
	is.Equal(rev.Object.Ref, "OCSP-"+hexSHA256([]byte("OCSP about the revoked signer")))
	// The summary's error is among the report data.
	is.True(slices.ContainsFunc(second.Status.Data[0].Additional, func(d struct{ Type, Value string }) bool {
		return d.Type == "urn:svc-dss:validation-report-data:error" && strings.HasPrefix(d.Value, "REVOKED_NO_POE: ")
	}))

	// Every object once; every reference resolves.
	ids := map[string]bool{}
	types := map[string]int{}
	for _, o := range doc.Objects {
		is.True(!ids[o.ID]) // id unique
		ids[o.ID] = true
		types[strings.TrimPrefix(o.Type, "urn:etsi:019102:validationObject:")]++
	}
	is.True(types["certificate"] >= 3) // signer, issuing CA, root, TSA
	is.Equal(types["timestamp"], 1)
	is.Equal(types["OCSPResponse"], 1) // the revoked signer's, shared by both signatures
	is.True(types["CRL"] >= 1)
	is.Equal(types["signedData"], 1) // both sign the same digest
	for _, ref := range references(t, out) {
		is.True(ids[ref]) // ref names an object
	}
}

// references are the ids of every VOReference of an XML document.
func references(t *testing.T, doc []byte) []string {
	t.Helper()
	var out []string
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Local == "VOReference" {
					out = append(out, strings.Fields(a.Value)...)
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no VOReference")
	}
	return out
}

func TestErrors(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	v := validation(t, p, signature(p.SignerRSA, nil, time.Time{}))
	other := v
	other.Signatures = []report.Signature{{Evidence: signature(p.Revoked, nil, time.Time{}), Result: validation(t, p, signature(p.Revoked, nil, time.Time{})).Signatures[0].Result}}
	none := validation(t, p)
	tests := []struct {
		name     string
		v        report.Validation
		detailed error // nil: Detailed succeeds
		etsi     error
	}{
		{"details of another signature", other, report.ErrInconsistent, report.ErrInconsistent},
		{"details missing", report.Validation{Summary: v.Summary, ValidationTime: vt}, report.ErrInconsistent, report.ErrInconsistent},
		{"no validation time", report.Validation{Summary: v.Summary, Signatures: v.Signatures}, report.ErrInconsistent, report.ErrInconsistent},
		{"no signature: a detailed report, no ETSI one", none, nil, report.ErrNoSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := report.Detailed(tt.v)
			is.True(errors.Is(err, tt.detailed) || err == nil && tt.detailed == nil)
			_, err = report.ETSI(tt.v)
			is.True(errors.Is(err, tt.etsi))
		})
	}
}

// TestQualityURIs: every qualification domain/qualification gives has a
// SignatureQualityInformation URI, the eIDAS ones as DSS spells them.
func TestQualityURIs(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	base := validation(t, p, signature(p.SignerRSA, nil, time.Time{}))
	str := func(s string) *string { return &s }
	yes := true
	tests := []struct {
		eidas, swiss *string
		handwritten  *bool
		want         []string
	}{
		{eidas: str(qualification.QESig), want: []string{"urn:cef:dss:signatureQualification:QESig"}},
		{eidas: str(qualification.QESeal), want: []string{"urn:cef:dss:signatureQualification:QESeal"}},
		{eidas: str(qualification.UnknownQCQSCD), want: []string{"urn:cef:dss:signatureQualification:UnknownQCwithQSCD"}},
		{eidas: str(qualification.AdESigQC), want: []string{"urn:cef:dss:signatureQualification:AdESigQC"}},
		{eidas: str(qualification.AdESealQC), want: []string{"urn:cef:dss:signatureQualification:AdESealQC"}},
		{eidas: str(qualification.UnknownQC), want: []string{"urn:cef:dss:signatureQualification:UnknownQC"}},
		{eidas: str(qualification.AdESig), want: []string{"urn:cef:dss:signatureQualification:AdESig"}},
		{eidas: str(qualification.AdESeal), want: []string{"urn:cef:dss:signatureQualification:AdESeal"}},
		{eidas: str(qualification.Unknown), want: []string{"urn:cef:dss:signatureQualification:Unknown"}},
		{eidas: str("INDETERMINATE_" + qualification.QESig), want: []string{"urn:cef:dss:signatureQualification:indeterminateQESig"}},
		{eidas: str("INDETERMINATE_" + qualification.UnknownQCQSCD), want: []string{"urn:cef:dss:signatureQualification:indeterminateUnknownQCwithQSCD"}},
		{eidas: str(qualification.NotAdESQCQSCD), want: []string{"urn:cef:dss:signatureQualification:notAdESbutQCwithQSCD"}},
		{eidas: str(qualification.NotAdESQC), want: []string{"urn:cef:dss:signatureQualification:notAdESbutQC"}},
		{eidas: str(qualification.NotAdES), want: []string{"urn:cef:dss:signatureQualification:notAdES"}},
		{eidas: str(qualification.NA), want: []string{"urn:cef:dss:signatureQualification:notApplicable"}},
		{swiss: str(qualification.ZertESQES), handwritten: &yes,
			want: []string{"urn:svc-dss:signatureQualification:zertes:QES", "urn:svc-dss:signatureQualification:zertes:HANDWRITTEN_EQUIVALENT"}},
		{swiss: str(qualification.ZertESRegulatedSignature), want: []string{"urn:svc-dss:signatureQualification:zertes:REGULATED_SIGNATURE"}},
		{swiss: str(qualification.ZertESRegulatedSeal), want: []string{"urn:svc-dss:signatureQualification:zertes:REGULATED_SEAL"}},
		{swiss: str(qualification.ZertESAdvanced), want: []string{"urn:svc-dss:signatureQualification:zertes:ADVANCED"}},
		{swiss: str(qualification.ZertESNotApplicable), want: []string{"urn:svc-dss:signatureQualification:zertes:NOT_APPLICABLE"}},
		{want: nil}, // outside both frameworks: no SignatureQuality
	}
	for _, tt := range tests {
		is := is.New(t)
		v := base
		v.Summary.Signatures = slices.Clone(base.Summary.Signatures)
		s := &v.Summary.Signatures[0]
		s.EIDASQualification, s.SwissQualification, s.HandwrittenEquivalent = tt.eidas, tt.swiss, tt.handwritten
		out, err := report.ETSI(v)
		is.NoErr(err)
		var doc vr
		is.NoErr(xml.Unmarshal(out, &doc))
		is.Equal(doc.Signatures[0].Quality, tt.want)
	}
	is := is.New(t)
	v := base
	v.Summary.Signatures = slices.Clone(base.Summary.Signatures)
	v.Summary.Signatures[0].EIDASQualification = str("QUALIFIED_SOMEHOW")
	_, err := report.ETSI(v)
	is.True(err != nil) // a value without a URI is an error, not a silent omission
}

func hexSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestCounterSignatureRelation: the detailed report names a
// counter-signature's parent (CounterSignatureOf, as the summary's
// counterSignatureOf), and the ETSI report gives the parent a
// CounterSignature attribute (TS 119 102-2 A.11) whose AttributeObject
// names the counter-signature's report by its SignatureIdentifier id and
// whose reference is the SHA-256 of its signature value; a signature
// without counter-signatures has none.
func TestCounterSignatureRelation(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	parent := signature(p.SignerRSA, nil, time.Time{})
	counter := signature(p.SignerECDSA, nil, time.Time{})
	counter.CounterSignatureOf, counter.SignatureValue = parent.ID, []byte("the counter-signature's value")
	parent.CounterSignatures = []ades.Signature{counter}
	v := validation(t, p, parent, counter)

	out, err := report.Detailed(v)
	is.NoErr(err)
	var d struct {
		Signatures []struct {
			ID                 string `xml:"Id,attr"`
			CounterSignatureOf string `xml:"CounterSignatureOf,attr"`
		} `xml:"Signature"`
	}
	is.NoErr(xml.Unmarshal(out, &d))
	is.Equal(len(d.Signatures), 2)
	is.Equal(d.Signatures[0].CounterSignatureOf, "")
	is.True(!bytes.Contains(out, []byte(`<Signature Id="`+parent.ID+`" Format="CAdES_BASELINE_B" CounterSignatureOf`))) // left out, not empty
	is.Equal(d.Signatures[1].ID, counter.ID)
	is.Equal(d.Signatures[1].CounterSignatureOf, parent.ID)

	out, err = report.ETSI(v)
	is.NoErr(err)
	type counterAttr struct {
		Signed bool `xml:"Signed,attr"`
		Object []struct {
			Ref string `xml:"VOReference,attr"`
		} `xml:"AttributeObject"`
		DigestMethod string `xml:"CounterSignature>DigestMethod"`
		DigestValue  string `xml:"CounterSignature>DigestValue"`
	}
	var e struct {
		Signatures []struct {
			Identifier struct {
				ID string `xml:"id,attr"`
			} `xml:"SignatureIdentifier"`
			Counters []counterAttr `xml:"SignatureAttributes>CounterSignature"`
		} `xml:"SignatureValidationReport"`
	}
	is.NoErr(xml.Unmarshal(out, &e))
	is.Equal(len(e.Signatures), 2)
	is.Equal(len(e.Signatures[0].Counters), 1)
	c := e.Signatures[0].Counters[0]
	is.True(!c.Signed)
	is.Equal(len(c.Object), 1)
	is.Equal(c.Object[0].Ref, counter.ID)
	sum := sha256.Sum256(counter.SignatureValue)
	is.Equal(c.DigestMethod, "http://www.w3.org/2001/04/xmlenc#sha256")
	is.Equal(c.DigestValue, base64.StdEncoding.EncodeToString(sum[:]))
	is.Equal(len(e.Signatures[1].Counters), 0)
	is.Equal(e.Signatures[1].Identifier.ID, counter.ID) // the id the attribute names
}
