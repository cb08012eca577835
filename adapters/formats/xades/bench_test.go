package xades_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	mrand "math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/xades"
	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/fixtures/pki"
	fxades "github.com/svc-dss/dss/fixtures/xades"
	"github.com/svc-dss/dss/ports"
)

// invoice returns a UBL invoice of about size bytes, shaped as
// fixtures/benchdoc's: two thirds invoice lines (markup), one third an
// embedded attachment in base64 (one text node).
func invoice(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>INV-2026-000123</cbc:ID>
  <cbc:IssueDate>2026-05-31</cbc:IssueDate>
`)
	raw := make([]byte, size/3/4*3*76/77)
	// Deterministic: the same document on every run.
	r := mrand.NewChaCha8([32]byte{})
	_, _ = r.Read(raw)
	enc := base64.StdEncoding.EncodeToString(raw)
	b.WriteString("  <cac:AdditionalDocumentReference><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode=\"application/pdf\">")
	for len(enc) > 76 {
		b.WriteString(enc[:76])
		b.WriteByte('\n')
		enc = enc[76:]
	}
	b.WriteString(enc)
	b.WriteString("</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>\n")
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(&b, `  <cac:InvoiceLine>
    <cbc:ID>%d</cbc:ID>
    <cbc:InvoicedQuantity unitCode="HUR">%d.5</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="EUR">%d.00</cbc:LineExtensionAmount>
    <cac:InvoicePeriod><cbc:StartDate>2026-05-01</cbc:StartDate><cbc:EndDate>2026-05-31</cbc:EndDate></cac:InvoicePeriod>
    <cac:Item>
      <cbc:Description>Consulting services, work package %d: analysis, design &amp; review</cbc:Description>
      <cbc:Name>Consulting</cbc:Name>
      <cac:SellersItemIdentification><cbc:ID>WP-%06d</cbc:ID></cac:SellersItemIdentification>
      <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory>
    </cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="EUR">120.00</cbc:PriceAmount></cac:Price>
  </cac:InvoiceLine>
`, i, i%40+1, (i%40+1)*120+60, i, i)
	}
	b.WriteString("</Invoice>\n")
	return b.Bytes()
}

var (
	signedOnce sync.Once
	signed     []byte
	signedErr  error
)

// signed10MB returns a 10 MiB enveloped XAdES-LT over invoice, built once.
func signed10MB(b *testing.B) []byte {
	b.Helper()
	signedOnce.Do(func() {
		var p *pki.PKI
		if p, signedErr = pki.New("http://127.0.0.1:9"); signedErr != nil {
			return
		}
		signed, signedErr = fxades.Sign(invoice(10<<20), fxades.Options{
			PKI: p, Signer: p.SignerRSA, Level: fxades.LT, Packaging: fxades.Enveloped,
			SigningTime: pki.ReferenceTime.Add(-12 * time.Hour),
		})
	})
	if signedErr != nil {
		b.Fatal(signedErr)
	}
	return signed
}

// TestReadLargeEnveloped reads a 1 MiB enveloped signature at B, whose
// reference is hashed as it is canonicalised (no octets kept), and at
// LTA, whose archive time-stamp needs the octets: both are intact, and
// the archive time-stamp's input is found.
func TestReadLargeEnveloped(t *testing.T) {
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	content := invoice(1 << 20)
	for _, level := range []fxades.Level{fxades.B, fxades.LTA} {
		signed, err := fxades.Sign(content, fxades.Options{PKI: p, Signer: p.SignerRSA, Level: level, Packaging: fxades.Enveloped,
			SigningTime: pki.ReferenceTime.Add(-12 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		sigs, err := xades.NewReader().Read(context.Background(), ports.Document{Name: "invoice.xml", Data: signed})
		if err != nil {
			t.Fatal(err)
		}
		if len(sigs) != 1 || !sigs[0].Value.Valid || len(sigs[0].DataObjects) != 1 || !sigs[0].DataObjects[0].Intact {
			t.Fatalf("%v: not intact: %+v", level, sigs)
		}
		if level == fxades.LTA {
			ts := sigs[0].Timestamps
			if len(ts) != 2 || !ts[1].Imprint.Done || !ts[1].Imprint.Valid {
				t.Fatalf("LTA: the archive time-stamp's imprint does not hold: %+v", ts)
			}
		}
	}
}

// BenchmarkRead10MB is what validation needs from the document: parse it,
// canonicalise and hash each reference (the document without its
// signature, SignedProperties), verify the signature value, read the
// properties, time-stamps and validation data. The rest of a validation
// (path building, revocation, the ETSI process) does not depend on the
// document's size. Compare with BenchmarkCanonicalizeHash10MB; the issue's
// goal is within 3x.
func BenchmarkRead10MB(b *testing.B) {
	data := signed10MB(b)
	doc := ports.Document{Name: "invoice.xml", Data: data}
	r := xades.NewReader()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		sigs, err := r.Read(context.Background(), doc)
		if err != nil {
			b.Fatal(err)
		}
		if len(sigs) != 1 || !sigs[0].Value.Valid || !sigs[0].DataObjects[0].Intact {
			b.Fatalf("not intact: %+v", sigs)
		}
	}
}

// BenchmarkCanonicalizeHash10MB is the yardstick: parse the same document
// once, canonicalise it whole once (exclusive c14n, the signature
// included) and hash the result with SHA-256.
func BenchmarkCanonicalizeHash10MB(b *testing.B) {
	data := signed10MB(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		tree, err := xmldsig.ParseDocument(data)
		if err != nil {
			b.Fatal(err)
		}
		c, err := xmldsig.CanonicalizeDocument(tree, xmldsig.ExcC14N, nil)
		if err != nil {
			b.Fatal(err)
		}
		sha256.Sum256(c)
	}
}
