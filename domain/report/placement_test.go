package report_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/report"
)

// TestPlacement (issue 17): a signature's placement renders in the
// summary, the detailed report and the ETSI report from its neutral
// fields, whatever its kind, as a PDF signature's did before the
// placement was neutral: the same pdf object, PDF element, DAIdentifier
// and unsigned Reason and ContactInfo attributes, byte for byte.
func TestPlacement(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	kinds := []struct {
		name string
		kind ades.PlacementKind
	}{
		{"a PDF field", ades.PDFField},
		{"a kind the reports do not know", ades.PlacementKind(200)},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig := signature(p.SignerRSA, nil, time.Time{})
			sig.Placement = &ades.Placement{Kind: k.kind, Name: "Approval", Revision: 2, Reason: "approved", Location: "Bern", ContactInfo: "ops@example.ch"}
			v := validation(t, p, sig)

			summary, err := json.Marshal(v.Summary.Signatures[0].PDF)
			is.NoErr(err)
			is.Equal(string(summary), `{"field":"Approval","revision":2,"coversWholeDocument":false,"reason":"approved","location":"Bern","contactInfo":"ops@example.ch"}`)

			detailed, err := report.Detailed(v)
			is.NoErr(err)
			is.True(bytes.Contains(detailed, []byte(`<PDF Field="Approval" Revision="2" CoversWholeDocument="false"></PDF>`)))

			etsiReport, err := report.ETSI(v)
			is.NoErr(err)
			for _, want := range []string{
				`<DAIdentifier>Approval</DAIdentifier>`,
				"<Reason Signed=\"false\">\n        <ReasonElement>approved</ReasonElement>\n      </Reason>",
				"<ContactInfo Signed=\"false\">\n        <ContactInfoElement>ops@example.ch</ContactInfoElement>\n      </ContactInfo>",
			} {
				if !bytes.Contains(etsiReport, []byte(want)) {
					t.Errorf("the ETSI report lacks %s", want)
				}
			}
		})
	}

	t.Run("none", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		v := validation(t, p, signature(p.SignerRSA, nil, time.Time{}))
		is.Equal(v.Summary.Signatures[0].PDF, nil)
		detailed, err := report.Detailed(v)
		is.NoErr(err)
		is.True(!bytes.Contains(detailed, []byte(`<PDF `)))
		etsiReport, err := report.ETSI(v)
		is.NoErr(err)
		is.True(!bytes.Contains(etsiReport, []byte(`DAIdentifier`)))
		is.True(!bytes.Contains(etsiReport, []byte(`<Reason`)))
	})
}

// TestDocumentTimestamp (issue 17): the ETSI report names an archive
// time-stamp a DocTimeStamp when the evidence says it is of the whole
// document (ades.Timestamp.Document), whatever the signature's format;
// an archive time-stamp inside a PDF signature's CMS is an
// ArchiveTimeStamp. A document time-stamp that serves as the signature's
// T-level time-stamp stays a SignatureTimeStamp.
func TestDocumentTimestamp(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	tests := []struct {
		name     string
		format   ades.Format
		typ      ades.TimestampType
		document bool
		want     string
	}{
		{"a PDF document time-stamp", ades.PAdES, ades.ArchiveTimestamp, true, "DocTimeStamp"},
		{"a PDF document time-stamp over an adbe.pkcs7 signature", ades.PKCS7, ades.ArchiveTimestamp, true, "DocTimeStamp"},
		{"an archive time-stamp in a PDF signature's CMS", ades.PAdES, ades.ArchiveTimestamp, false, "ArchiveTimeStamp"},
		{"a CAdES archive time-stamp", ades.CAdES, ades.ArchiveTimestamp, false, "ArchiveTimeStamp"},
		{"a document time-stamp of a format to come", ades.XAdES, ades.ArchiveTimestamp, true, "DocTimeStamp"},
		{"a document time-stamp serving as the T level", ades.PAdES, ades.SignatureTimestamp, true, "SignatureTimeStamp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig := signature(p.SignerRSA, p.TSA, vt.Add(-2*time.Hour))
			sig.Format = tt.format
			sig.Timestamps[0].Type, sig.Timestamps[0].Document = tt.typ, tt.document
			out, err := report.ETSI(validation(t, p, sig))
			is.NoErr(err)
			for _, element := range []string{"DocTimeStamp", "ArchiveTimeStamp", "SignatureTimeStamp"} {
				is.Equal(bytes.Contains(out, []byte("<"+element+" Signed=\"false\">")), element == tt.want)
			}
		})
	}
}
