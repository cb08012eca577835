package validation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/asic"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/validationtest"
)

// FuzzValidate feeds fuzzed documents through the readers into the front
// door, so that what lies behind them runs on hostile evidence: the ETSI
// process, qualification, the summary and both reports. The validator is
// built once per fuzz process on the kit's trusted lists, offline (a
// fuzzed URL is never fetched), and reused.
//
// It checks that a document is either refused as unreadable or gets a
// result whose summary counts its signatures and entries, with every
// indication from the closed set, whose two reports are well-formed XML
// that say the same, and which the same document gives again.
func FuzzValidate(f *testing.F) {
	kit := validationtest.Start(f)
	opts := append(kit.Options(), validation.Offline(), validation.WithLogger(slog.New(slog.DiscardHandler)))
	v, err := validation.New(context.Background(), opts...)
	if err != nil {
		f.Fatal(err)
	}
	for _, format := range validationtest.Formats() {
		for _, s := range []validationtest.Signature{
			{Level: cades.B},
			{Level: cades.LTA},
			{Level: cades.LT, Detached: format == validationtest.CAdES},
		} {
			if !format.Signs() && s.Level != cades.B {
				continue // a time-stamp has no level
			}
			doc, err := kit.Sign(format, s)
			if err != nil {
				f.Fatal(err)
			}
			var partName string
			var part []byte
			if len(doc.Detached) > 0 {
				partName, part = doc.Detached[0].Name, doc.Detached[0].Data
			}
			f.Add(doc.Name, doc.Data, partName, part)
		}
	}
	// Evidence the process decides otherwise: revoked, expired and
	// untrusted signers, a Swiss and a sealing certificate, two PDF
	// signatures, containers of every kind.
	for _, seed := range []struct {
		format validationtest.Format
		s      validationtest.Signature
	}{
		{validationtest.CAdES, validationtest.Signature{Level: cades.LT, Defect: cades.RevokedSigner}},
		{validationtest.CAdES, validationtest.Signature{Level: cades.LT, Defect: cades.ExpiredSigner}},
		{validationtest.CAdES, validationtest.Signature{Level: cades.LT, Defect: cades.UntrustedRoot}},
		{validationtest.CAdES, validationtest.Signature{Level: cades.LTA, Defect: cades.BrokenArchiveTimestamp}},
		{validationtest.CAdES, validationtest.Signature{Level: cades.LT, Signer: kit.PKI.SignerCHQES, TSA: kit.PKI.TSACH}},
		{validationtest.XAdES, validationtest.Signature{Level: cades.LT, Signer: kit.PKI.SealEUQES}},
		{validationtest.PAdES, validationtest.Signature{Level: cades.T, PDFDefect: pades.ForeignContents}},
		{validationtest.ASiC, validationtest.Signature{Level: cades.LT, Container: asic.ASiCE, Inner: asic.XAdES}},
		{validationtest.ASiC, validationtest.Signature{Level: cades.LT, Container: asic.ASiCE, Inner: asic.CAdES}},
		{validationtest.ASiC, validationtest.Signature{Container: asic.ASiCE, Inner: asic.TimestampOnly}},
	} {
		doc, err := kit.Sign(seed.format, seed.s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(doc.Name, doc.Data, "", []byte(nil))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte, partName string, part []byte) {
		doc := validation.Document{Name: name, Data: data}
		if partName != "" || len(part) > 0 {
			doc.Detached = []validation.Part{{Name: partName, Data: part}}
		}
		res, err := v.Validate(context.Background(), doc)
		if err != nil {
			if !errors.Is(err, validation.ErrUnreadable) {
				t.Fatalf("neither a result nor unreadable: %v", err)
			}
			return
		}
		checkSummary(t, res.Summary)
		if len(res.Validation.Signatures) != res.Summary.SignatureCount || len(res.Validation.Timestamps) != len(res.Summary.Timestamps) {
			t.Fatalf("%d signatures and %d entries detailed, %d and %d summarised",
				len(res.Validation.Signatures), len(res.Validation.Timestamps), res.Summary.SignatureCount, len(res.Summary.Timestamps))
		}
		if _, err := catalogued(res.Summary); err != nil {
			t.Fatalf("the catalogue does not say the messages: %v", err)
		}
		checkDetailed(t, res)
		checkETSI(t, res)

		again, err := v.Validate(context.Background(), doc)
		if err != nil {
			t.Fatalf("validated once, then: %v", err)
		}
		first, err := json.Marshal(res.Summary)
		if err != nil {
			t.Fatalf("summary: %v", err)
		}
		second, err := json.Marshal(again.Summary)
		if err != nil {
			t.Fatalf("summary: %v", err)
		}
		if !bytes.Equal(first, second) {
			t.Fatalf("the same document gave two summaries:\n%s\n%s", first, second)
		}
	})
}

// checkSummary checks what Summarize and WithTimestamps promise: the
// count, the closed sets of indications, a sub-indication exactly when
// one did not pass, and valid decided over signatures and entries.
func checkSummary(t *testing.T, sum verdict.ValidationSummary) {
	t.Helper()
	if sum.SignatureCount != len(sum.Signatures) {
		t.Fatalf("signatureCount %d, %d signatures", sum.SignatureCount, len(sum.Signatures))
	}
	valid := len(sum.Signatures)+len(sum.Timestamps) > 0
	for _, s := range sum.Signatures {
		switch s.Indication {
		case verdict.TotalPassed, verdict.TotalFailed, verdict.Indeterminate:
		default:
			t.Fatalf("signature %s: indication %q", s.SignatureID, s.Indication)
		}
		if (s.SubIndication == nil) != (s.Indication == verdict.TotalPassed) {
			t.Fatalf("signature %s: %s with sub-indication %v", s.SignatureID, s.Indication, s.SubIndication)
		}
		if s.Errors == nil || s.Warnings == nil || s.SignatureScope == nil || s.CertificateChain == nil {
			t.Fatalf("signature %s: a list is null", s.SignatureID)
		}
		valid = valid && (s.Indication == verdict.TotalPassed || s.CounterSignatureOf != "")
	}
	for _, e := range sum.Timestamps {
		switch e.Indication {
		case verdict.Passed, verdict.Failed, verdict.Indeterminate:
		default:
			t.Fatalf("entry %s: indication %q", e.ID, e.Indication)
		}
		if (e.SubIndication == nil) != (e.Indication == verdict.Passed) {
			t.Fatalf("entry %s: %s with sub-indication %v", e.ID, e.Indication, e.SubIndication)
		}
		valid = valid && e.Indication == verdict.Passed
	}
	if sum.Valid != valid {
		t.Fatalf("valid %t, but the indications say %t", sum.Valid, valid)
	}
}

// fuzzDetailed is what FuzzValidate reads back from the detailed report.
type fuzzDetailed struct {
	Document struct {
		SignatureCount int  `xml:"SignatureCount,attr"`
		Valid          bool `xml:"Valid,attr"`
	} `xml:"Document"`
	Signatures []struct {
		ID         string      `xml:"Id,attr"`
		Conclusion fuzzVerdict `xml:"Conclusion"`
	} `xml:"Signature"`
	Timestamps []struct {
		ID         string      `xml:"Id,attr"`
		Conclusion fuzzVerdict `xml:"Conclusion"`
	} `xml:"TimestampEntry"`
}

type fuzzVerdict struct {
	Indication    verdict.Indication    `xml:"Indication"`
	SubIndication verdict.SubIndication `xml:"SubIndication"`
}

// same reports whether c is the indication and sub-indication i, sub.
func (c fuzzVerdict) same(i verdict.Indication, sub *verdict.SubIndication) bool {
	var want verdict.SubIndication
	if sub != nil {
		want = *sub
	}
	return c.Indication == i && c.SubIndication == want
}

// checkDetailed checks that the detailed report is well-formed and says
// what the summary says.
func checkDetailed(t *testing.T, res *validation.Result) {
	t.Helper()
	b, err := res.DetailedReport()
	if err != nil {
		t.Fatalf("detailed report: %v", err)
	}
	wellFormed(t, "detailed report", b)
	var d fuzzDetailed
	if err := xml.Unmarshal(b, &d); err != nil {
		t.Fatalf("detailed report: %v", err)
	}
	sum := res.Summary
	if d.Document.SignatureCount != sum.SignatureCount || d.Document.Valid != sum.Valid ||
		len(d.Signatures) != sum.SignatureCount || len(d.Timestamps) != len(sum.Timestamps) {
		t.Fatalf("detailed report: %d (%d) signatures, %d entries, valid %t; summary: %d, %d, %t",
			d.Document.SignatureCount, len(d.Signatures), len(d.Timestamps), d.Document.Valid, sum.SignatureCount, len(sum.Timestamps), sum.Valid)
	}
	for i, s := range d.Signatures {
		want := sum.Signatures[i]
		if s.ID != want.SignatureID || !s.Conclusion.same(want.Indication, want.SubIndication) {
			t.Fatalf("detailed report: signature %d is %s %+v, summarised %s %s", i+1, s.ID, s.Conclusion, want.SignatureID, want.Indication)
		}
	}
	for i, e := range d.Timestamps {
		want := sum.Timestamps[i]
		if e.ID != want.ID || !e.Conclusion.same(want.Indication, want.SubIndication) {
			t.Fatalf("detailed report: entry %d is %s %+v, summarised %s %s", i+1, e.ID, e.Conclusion, want.ID, want.Indication)
		}
	}
}

// checkETSI checks that the ETSI validation report, which a document
// without signatures has none of, is well-formed and says what the
// summary says.
func checkETSI(t *testing.T, res *validation.Result) {
	t.Helper()
	b, err := res.ETSIReport()
	sum := res.Summary
	if sum.SignatureCount == 0 {
		if !errors.Is(err, report.ErrNoSignature) {
			t.Fatalf("ETSI report of no signature: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatalf("ETSI report: %v", err)
	}
	wellFormed(t, "ETSI report", b)
	var d struct {
		Signatures []struct {
			Status struct {
				MainIndication string   `xml:"MainIndication"`
				SubIndication  []string `xml:"SubIndication"`
			} `xml:"SignatureValidationStatus"`
		} `xml:"SignatureValidationReport"`
	}
	if err := xml.Unmarshal(b, &d); err != nil {
		t.Fatalf("ETSI report: %v", err)
	}
	if len(d.Signatures) != sum.SignatureCount {
		t.Fatalf("ETSI report: %d signatures, summary %d", len(d.Signatures), sum.SignatureCount)
	}
	main := map[verdict.Indication]string{
		verdict.TotalPassed: "total-passed", verdict.TotalFailed: "total-failed", verdict.Indeterminate: "indeterminate",
	}
	for i, s := range d.Signatures {
		want := sum.Signatures[i]
		var sub []string
		if want.SubIndication != nil {
			sub = []string{"urn:etsi:019102:subindication:" + want.SubIndication.String()}
		}
		if s.Status.MainIndication != "urn:etsi:019102:mainindication:"+main[want.Indication] || fmt.Sprint(s.Status.SubIndication) != fmt.Sprint(sub) {
			t.Fatalf("ETSI report: signature %d is %s %v, summarised %s %v", i+1, s.Status.MainIndication, s.Status.SubIndication, want.Indication, sub)
		}
	}
}

// wellFormed fails t unless b is one well-formed XML document.
func wellFormed(t *testing.T, what string, b []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	roots := 0
	depth := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed: %v", what, err)
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 || depth != 0 {
		t.Fatalf("%s: %d root elements", what, roots)
	}
}
