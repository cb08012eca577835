package validation_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cmswrite"
	"github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/xades"
)

// counterWant is what a counter-signature test asserts of the two
// reports: the parent's and the counter-signature's
// indication/sub-indication, and the document's valid.
type counterWant struct {
	parent, counter string
	valid           bool
}

// checkCounterSignature asserts that sum holds a signature and, after
// it, its counter-signature, validated each on its own (decision 0017).
func checkCounterSignature(t *testing.T, sum verdict.ValidationSummary, want counterWant) {
	t.Helper()
	is := is.NewRelaxed(t)
	if sum.SignatureCount != 2 || len(sum.Signatures) != 2 {
		t.Fatalf("signatureCount %d, %d reports, want 2", sum.SignatureCount, len(sum.Signatures))
	}
	parent, counter := sum.Signatures[0], sum.Signatures[1]
	t.Logf("parent %s/%s errors=%v; counter %s/%s errors=%v", parent.Indication, deref(parent.SubIndication), codes(parent.Errors),
		counter.Indication, deref(counter.SubIndication), codes(counter.Errors))
	is.Equal(parent.CounterSignatureOf, "")
	is.Equal(counter.CounterSignatureOf, parent.SignatureID)
	is.True(counter.SignatureID != parent.SignatureID)
	is.Equal(parent.Indication.String()+"/"+deref(parent.SubIndication).String(), want.parent)
	is.Equal(counter.Indication.String()+"/"+deref(counter.SubIndication).String(), want.counter)
	is.Equal(sum.Valid, want.valid)
}

// A CAdES signature with a counter-signature (RFC 5652 11.4) gives two
// reports, the counter-signature's naming its parent; a counter-signature
// whose value does not verify, or whose message digest is over another
// signature value, fails on its own and leaves its parent, and the
// document, valid.
func TestValidateCAdESCounterSignature(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	signedAt := s.at.Add(-time.Hour)
	parent := cmswrite.Signer{Certificate: p.SignerRSA.Certificate, Key: p.SignerRSA.Key, SigningTime: signedAt}
	counter := cmswrite.Signer{Certificate: p.SignerECDSA.Certificate, Key: p.SignerECDSA.Key, SigningTime: signedAt}
	intermediates := cmswrite.SignOptions{Certificates: []*x509.Certificate{p.Intermediate.Certificate}}
	sign := func(t *testing.T, content string, parent cmswrite.Signer) []byte {
		t.Helper()
		der, err := cmswrite.Sign([]byte(content), []cmswrite.Signer{parent}, intermediates)
		if err != nil {
			t.Fatal(err)
		}
		return der
	}

	t.Run("valid counter-signature", func(t *testing.T) {
		t.Parallel()
		parent := parent
		parent.CounterSigners = []cmswrite.Signer{counter}
		sum, err := validate(s.v, validation.Document{Name: "countersigned.p7m", Data: sign(t, "contract", parent)}, s.at)
		if err != nil {
			t.Fatal(err)
		}
		checkCounterSignature(t, sum, counterWant{"TOTAL_PASSED/", "TOTAL_PASSED/", true})
	})
	t.Run("counter-signature value does not verify", func(t *testing.T) {
		t.Parallel()
		other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		wrong := counter
		wrong.Key = other // not the key of the certificate it names
		parent := parent
		parent.CounterSigners = []cmswrite.Signer{wrong}
		sum, err := validate(s.v, validation.Document{Name: "countersigned.p7m", Data: sign(t, "contract", parent)}, s.at)
		if err != nil {
			t.Fatal(err)
		}
		checkCounterSignature(t, sum, counterWant{"TOTAL_PASSED/", "TOTAL_FAILED/SIG_CRYPTO_FAILURE", true})
	})
	t.Run("counter-signature over another signature value", func(t *testing.T) {
		t.Parallel()
		// The counter-signature of a signature of other content, grafted
		// onto the signature of the contract: its message digest is that
		// of another signature value.
		donor := parent
		donor.CounterSigners = []cmswrite.Signer{counter}
		sd, err := cms.Parse(sign(t, "another contract", donor))
		if err != nil {
			t.Fatal(err)
		}
		found := sd.SignerInfos[0].UnsignedAttrs.Find(cms.OIDAttrCounterSignature)
		if len(found) != 1 {
			t.Fatalf("%d countersignature attributes in the donor", len(found))
		}
		graft := cms.Attribute{Type: found[0].Type, Values: found[0].Values}
		parent := parent
		parent.UnsignedAttributes = func([]byte) ([]cms.Attribute, error) { return []cms.Attribute{graft}, nil }
		opts := intermediates
		opts.Certificates = append(opts.Certificates, p.SignerECDSA.Certificate)
		der, err := cmswrite.Sign([]byte("contract"), []cmswrite.Signer{parent}, opts)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := validate(s.v, validation.Document{Name: "countersigned.p7m", Data: der}, s.at)
		if err != nil {
			t.Fatal(err)
		}
		checkCounterSignature(t, sum, counterWant{"TOTAL_PASSED/", "TOTAL_FAILED/HASH_FAILURE", true})
	})
}

// A XAdES signature with a xades:CounterSignature gives two reports, the
// counter-signature's naming its parent; a counter-signature whose
// ds:SignatureValue is altered fails on its own and leaves its parent,
// and the document, valid.
func TestValidateXAdESCounterSignature(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	signed, err := xades.Sign([]byte("<doc>counter-signed</doc>"), xades.Options{PKI: p, Signer: p.SignerRSA, Level: xades.B,
		SigningTime: signedYesterday, CounterSigner: p.SignerECDSA})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("valid counter-signature", func(t *testing.T) {
		t.Parallel()
		sum, err := validate(s.v, validation.Document{Name: "signature.xml", Data: signed}, s.at)
		if err != nil {
			t.Fatal(err)
		}
		checkCounterSignature(t, sum, counterWant{"TOTAL_PASSED/", "TOTAL_PASSED/", true})
	})
	t.Run("counter-signature value altered", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		// The counter-signature's ds:SignatureValue is the document's
		// last: it sits in the parent's unsigned properties, after the
		// parent's own.
		altered := bytes.Clone(signed)
		end := bytes.LastIndex(altered, []byte("</ds:SignatureValue>"))
		is.True(end > 0)
		start := bytes.LastIndexByte(altered[:end], '>') + 1
		i := start + (end-start)/2
		for altered[i] == '\n' || altered[i] == '\r' || altered[i] == ' ' {
			i++
		}
		if altered[i] == 'A' {
			altered[i] = 'B'
		} else {
			altered[i] = 'A'
		}
		sum, err := validate(s.v, validation.Document{Name: "signature.xml", Data: altered}, s.at)
		if err != nil {
			t.Fatal(err)
		}
		checkCounterSignature(t, sum, counterWant{"TOTAL_PASSED/", "TOTAL_FAILED/SIG_CRYPTO_FAILURE", true})
	})
}

// A JAdES signature with a cSig (TS 119 182-1 5.3.2), flattened or
// compact, gives two reports, the counter-signature's naming its parent;
// a parent whose signature value is altered fails, and so does its
// counter-signature, over the value as signed, as for CAdES.
func TestValidateJAdESCounterSignature(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	for _, ser := range []jades.Serialization{jades.Flattened, jades.Compact} {
		signed, _, err := jades.Sign([]byte(`{"contract":1}`), jades.Options{PKI: p, Signer: p.SignerRSA, Level: jades.LT,
			SigningTime: signedYesterday, CounterSigner: p.SignerECDSA, CounterSerialization: ser})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(ser.String()+"/valid counter-signature", func(t *testing.T) {
			t.Parallel()
			sum, err := validate(s.v, validation.Document{Name: "signature.json", Data: signed}, s.at)
			if err != nil {
				t.Fatal(err)
			}
			checkCounterSignature(t, sum, counterWant{"TOTAL_PASSED/", "TOTAL_PASSED/", true})
		})
		t.Run(ser.String()+"/parent signature value altered", func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			// The parent's "signature" is the last member of the
			// flattened serialisation, after the header that holds the
			// cSig.
			altered := bytes.Clone(signed)
			key := []byte(`"signature":"`)
			at := bytes.LastIndex(altered, key)
			is.True(at > 0)
			i := at + len(key) + 10
			if altered[i] == 'A' {
				altered[i] = 'B'
			} else {
				altered[i] = 'A'
			}
			sum, err := validate(s.v, validation.Document{Name: "signature.json", Data: altered}, s.at)
			if err != nil {
				t.Fatal(err)
			}
			checkCounterSignature(t, sum, counterWant{"TOTAL_FAILED/SIG_CRYPTO_FAILURE", "TOTAL_FAILED/SIG_CRYPTO_FAILURE", false})
		})
	}
}

// The reports of a counter-signed document, of each format that has
// counter-signatures, are valid against their schemas and relate each
// counter-signature to its parent: the detailed report by
// CounterSignatureOf, the ETSI TS 119 102-2 one by the parent's
// CounterSignature attribute, whose AttributeObject names the
// counter-signature's SignatureIdentifier and whose reference is the
// SHA-256 of its signature value.
func TestCounterSignatureReports(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	cadesParent := cmswrite.Signer{Certificate: p.SignerRSA.Certificate, Key: p.SignerRSA.Key, SigningTime: signedYesterday,
		CounterSigners: []cmswrite.Signer{{Certificate: p.SignerECDSA.Certificate, Key: p.SignerECDSA.Key, SigningTime: signedYesterday}}}
	cadesDoc, err := cmswrite.Sign([]byte("contract"), []cmswrite.Signer{cadesParent}, cmswrite.SignOptions{Certificates: []*x509.Certificate{p.Intermediate.Certificate}})
	if err != nil {
		t.Fatal(err)
	}
	sd, err := cms.Parse(cadesDoc)
	if err != nil {
		t.Fatal(err)
	}
	xadesDoc, err := xades.Sign([]byte("<doc>counter-signed</doc>"), xades.Options{PKI: p, Signer: p.SignerRSA, Level: xades.B,
		SigningTime: signedYesterday, CounterSigner: p.SignerECDSA})
	if err != nil {
		t.Fatal(err)
	}
	jadesDoc, _, err := jades.Sign([]byte(`{"contract":1}`), jades.Options{PKI: p, Signer: p.SignerRSA, Level: jades.T,
		SigningTime: signedYesterday, CounterSigner: p.SignerECDSA, CounterSerialization: jades.Compact})
	if err != nil {
		t.Fatal(err)
	}
	docs := []struct {
		name string
		data []byte
		// counterValue is the counter-signature's value, read apart from
		// the validator; nil when not checked.
		counterValue []byte
	}{
		{"countersigned.p7m", cadesDoc, sd.SignerInfos[0].CounterSignatures[0].Signature},
		{"countersigned.xml", xadesDoc, nil},
		{"countersigned.json", jadesDoc, nil},
	}
	dir := t.TempDir()
	var detailedFiles, etsiFiles []string
	for _, d := range docs {
		is := is.New(t)
		res, err := s.v.At(s.at).Validate(context.Background(), validation.Document{Name: d.name, Data: d.data})
		is.NoErr(err)
		sum := res.Summary
		is.Equal(len(sum.Signatures), 2)
		parent, counter := sum.Signatures[0], sum.Signatures[1]
		is.Equal(counter.CounterSignatureOf, parent.SignatureID)

		detailed, err := res.DetailedReport()
		is.NoErr(err)
		var dr struct {
			Signatures []struct {
				ID                 string `xml:"Id,attr"`
				CounterSignatureOf string `xml:"CounterSignatureOf,attr"`
			} `xml:"Signature"`
		}
		is.NoErr(xml.Unmarshal(detailed, &dr))
		is.Equal(len(dr.Signatures), 2)
		is.Equal(dr.Signatures[0].CounterSignatureOf, "")
		is.Equal(dr.Signatures[1].CounterSignatureOf, parent.SignatureID)

		etsiVR, err := res.ETSIReport()
		is.NoErr(err)
		var er struct {
			Signatures []struct {
				Identifier struct {
					ID string `xml:"id,attr"`
				} `xml:"SignatureIdentifier"`
				Counters []struct {
					Object []struct {
						Ref string `xml:"VOReference,attr"`
					} `xml:"AttributeObject"`
					DigestValue string `xml:"CounterSignature>DigestValue"`
				} `xml:"SignatureAttributes>CounterSignature"`
			} `xml:"SignatureValidationReport"`
		}
		is.NoErr(xml.Unmarshal(etsiVR, &er))
		is.Equal(len(er.Signatures), 2)
		is.Equal(len(er.Signatures[0].Counters), 1)
		c := er.Signatures[0].Counters[0]
		is.Equal(len(c.Object), 1)
		is.Equal(c.Object[0].Ref, er.Signatures[1].Identifier.ID) // names the counter-signature's report
		is.Equal(er.Signatures[1].Identifier.ID, counter.SignatureID)
		is.True(c.DigestValue != "")
		if d.counterValue != nil {
			h := sha256.Sum256(d.counterValue)
			is.Equal(c.DigestValue, base64.StdEncoding.EncodeToString(h[:]))
		}
		is.Equal(len(er.Signatures[1].Counters), 0)

		// Every reference names a validation object or, for a
		// counter-signature, a signature's report.
		ids := map[string]bool{}
		for _, o := range parseETSI(t, etsiVR).Objects {
			ids[o.ID] = true
		}
		for _, sig := range er.Signatures {
			ids[sig.Identifier.ID] = true
		}
		for _, ref := range voReferences(t, etsiVR) {
			if !ids[ref] {
				t.Errorf("%s: VOReference %s names nothing in the report", d.name, ref)
			}
		}
		detailedFiles = append(detailedFiles, write(t, dir, d.name+".detailed.xml", detailed))
		etsiFiles = append(etsiFiles, write(t, dir, d.name+".etsi.xml", etsiVR))
	}

	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint is not installed (libxml2-utils): the reports cannot be validated against their schemas")
	}
	xmllintValid(t, xmllint, nil, filepath.Join("..", "..", "docs", "detailed-report.xsd"), detailedFiles)
	if _, err := os.Stat(filepath.Join(sharedXSD, "TS119102-2-v141.xsd")); err != nil {
		t.Skipf("the ETSI schemas are not at %s: %v", sharedXSD, err)
	}
	catalog, err := filepath.Abs(filepath.Join(sharedXSD, "catalog.xml"))
	if err != nil {
		t.Fatal(err)
	}
	xmllintValid(t, xmllint, []string{"XML_CATALOG_FILES=" + catalog}, filepath.Join(sharedXSD, "TS119102-2-v141.xsd"), etsiFiles)
}
