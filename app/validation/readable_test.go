package validation_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/asic"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/cmswrite"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/validationtest"
)

// readableKit is the kit and a validator trusting its lists, fetching
// revocation data from its PKI.
func readableKit(t *testing.T) (*validationtest.Kit, *validation.Validator) {
	t.Helper()
	kit := validationtest.Start(t)
	v, err := validation.New(context.Background(), kit.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	return kit, v
}

func summaryOf(t *testing.T, v *validation.Validator, doc validation.Document) verdict.ValidationSummary {
	t.Helper()
	res, err := v.Validate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	return res.Summary
}

// Issue 23: every format gives, per signature, the signer as a person
// reads it, the time claimed apart from the time proved (a B-level
// signature has no best-signature-time; a T-level one has its
// time-stamp's), what it covers, the chain to its list anchor with the
// revocation data checked for the signer, and its sentence.
func TestReadableVerdictAcrossFormats(t *testing.T) {
	t.Parallel()
	kit, v := readableKit(t)
	signer := kit.PKI.SignerEUQES.Certificate
	signedAt := kit.Time.Add(-12 * time.Hour) // the kit's default signing time
	tests := []struct {
		format validationtest.Format
		sig    validationtest.Signature
		scope  []verdict.SignatureScope
	}{
		{validationtest.CAdES, validationtest.Signature{}, []verdict.SignatureScope{{Kind: verdict.ScopeFull, Name: "content", Description: "The whole document."}}},
		{validationtest.CAdES, validationtest.Signature{Detached: true}, []verdict.SignatureScope{{Kind: verdict.ScopeFull, Name: "content.txt", Description: `The whole detached file "content.txt".`}}},
		{validationtest.PAdES, validationtest.Signature{}, []verdict.SignatureScope{{Kind: verdict.ScopeFull, Name: "Signature1",
			Description: "The whole PDF document (revision 2 of 2): nothing was added after the signature."}}},
		{validationtest.XAdES, validationtest.Signature{}, []verdict.SignatureScope{{Kind: verdict.ScopeFull, Name: "/", Description: "The whole document."}}},
		{validationtest.XAdES, validationtest.Signature{Enveloping: true}, []verdict.SignatureScope{{Kind: verdict.ScopeFull, Name: "/ds:Signature/ds:Object[1]",
			Description: "The whole content enveloped in the signature, the XML element /ds:Signature/ds:Object[1]."}}},
		{validationtest.ASiC, validationtest.Signature{}, []verdict.SignatureScope{{Kind: verdict.ScopeFull, Name: "document.txt",
			Description: `The whole file "document.txt" of the ASiC-S container.`}}},
		{validationtest.JAdES, validationtest.Signature{}, []verdict.SignatureScope{{Kind: verdict.ScopeFull, Name: "payload", Description: "The whole document."}}},
	}
	for _, tt := range tests {
		for _, level := range []cades.Level{cades.B, cades.T} {
			t.Run(fmt.Sprintf("%v-%v", tt.format, level), func(t *testing.T) {
				t.Parallel()
				is := is.New(t)
				sig := tt.sig
				sig.Level = level
				doc, err := kit.Sign(tt.format, sig)
				is.NoErr(err)
				sum := summaryOf(t, v, doc)
				is.Equal(sum.Summary, "The document is validly signed: each of its signatures is valid.")
				s := sum.Signatures[0]
				is.Equal(s.Indication, verdict.TotalPassed)
				is.Equal(s.Summary, "The signature is valid.")

				is.True(s.SignedBy != nil)
				is.Equal(s.SignedBy.Kind, verdict.SignerPerson)
				is.Equal(s.SignedBy.Name, "Test Signer EU QES")
				is.Equal(s.SignedBy.Certificate, verdict.CertificateOf(signer))

				is.True(s.SigningTime != nil)
				is.True(s.SigningTime.Equal(signedAt)) // claimed by the signer
				if level == cades.B {
					is.Equal(s.BestSignatureTime, nil) // nothing proves a time
				} else {
					is.Equal(len(s.Timestamps), 1)
					is.True(s.BestSignatureTime != nil)
					is.True(s.BestSignatureTime.Equal(s.Timestamps[0].GenerationTime)) // proved by the time-stamp
					is.True(s.BestSignatureTime.After(*s.SigningTime))
				}

				is.Equal(described(s.SignatureScope), tt.scope)

				is.Equal(len(s.CertificateChain), 2) // signer, and the EU CA on the DE list
				leaf, anchor := s.CertificateChain[0], s.CertificateChain[1]
				is.Equal(leaf.Certificate, verdict.CertificateOf(signer))
				is.True(!leaf.TrustAnchor)
				is.True(leaf.Revocation != nil) // fetched from the kit's PKI
				is.Equal(leaf.Revocation.Status, "GOOD")
				is.True(leaf.Revocation.Source == "CRL" || leaf.Revocation.Source == "OCSP")
				is.True(!leaf.Revocation.Embedded)
				is.Equal(anchor.Certificate, verdict.CertificateOf(kit.PKI.IntermediateEU.Certificate))
				is.True(anchor.TrustAnchor)
				is.Equal(anchor.AnchorSource, verdict.AnchorTrustedList)
				is.Equal(anchor.TrustedList, &verdict.AnchorList{TrustFramework: verdict.FrameworkEUEIDAS, Territory: "DE", Authenticated: true})
				is.Equal(anchor.Revocation, nil) // an anchor is not checked
			})
		}
	}
}

// An LT signature relies on the revocation data it carries: the chain
// says so, and for an OCSP response when it was produced.
func TestReadableChainEmbeddedRevocation(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	kit, v := readableKit(t)
	doc, err := kit.Sign(validationtest.CAdES, validationtest.Signature{Level: cades.LT})
	is.NoErr(err)
	s := summaryOf(t, v, doc).Signatures[0]
	is.Equal(s.Indication, verdict.TotalPassed)
	rev := s.CertificateChain[0].Revocation
	is.True(rev != nil)
	is.True(rev.Embedded)
	is.Equal(rev.Status, "GOOD")
	switch rev.Source {
	case "OCSP":
		is.True(rev.ProducedAt != nil)
	case "CRL":
		is.Equal(rev.ProducedAt, nil)
	default:
		t.Fatalf("revocation source %q", rev.Source)
	}
	is.True(!rev.ThisUpdate.IsZero())
}

// A seal names the organisation and its identifier.
func TestReadableSeal(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	kit, v := readableKit(t)
	doc, err := kit.Sign(validationtest.CAdES, validationtest.Signature{Signer: kit.PKI.SealEUQES})
	is.NoErr(err)
	s := summaryOf(t, v, doc).Signatures[0]
	is.Equal(s.SignedBy.Kind, verdict.SignerOrganization)
	is.Equal(s.SignedBy.Organization, "SVC DSS Test Seal Org")
	is.Equal(s.SignedBy.OrganizationIdentifier, "VATDE-123456789")
}

// A signer whose chain reaches no list: the chain goes as far as it was
// built, here the self-signed signer alone, no certificate of it an
// anchor, and the sentence says why.
func TestReadableUntrustedChain(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	kit, v := readableKit(t)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	is.NoErr(err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "Nobody Trusted"},
		NotBefore: kit.Time.AddDate(-1, 0, 0), NotAfter: kit.Time.AddDate(1, 0, 0), KeyUsage: x509.KeyUsageDigitalSignature}
	certDER, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	is.NoErr(err)
	cert, err := x509.ParseCertificate(certDER)
	is.NoErr(err)
	der, err := cmswrite.Sign([]byte("contract"), []cmswrite.Signer{{Certificate: cert, Key: key, SigningTime: kit.Time.Add(-time.Hour)}}, cmswrite.SignOptions{})
	is.NoErr(err)
	s := summaryOf(t, v, validation.Document{Name: "untrusted.p7m", Data: der}).Signatures[0]
	is.Equal(s.Indication, verdict.Indeterminate)
	is.Equal(*s.SubIndication, verdict.SubNoCertificateChainFound)
	is.Equal(s.Summary, "The signer's certificate does not lead to a trusted certification authority.")
	is.Equal(s.SignedBy.Name, "Nobody Trusted")
	is.Equal(len(s.CertificateChain), 1)
	is.Equal(s.CertificateChain[0].Certificate, verdict.CertificateOf(cert))
	is.True(!s.CertificateChain[0].TrustAnchor)
	is.Equal(s.CertificateChain[0].TrustedList, nil)
}

// A PDF signature followed by a form filled in covers its revision, not
// the document: the scope says which of how many, and what changed.
func TestReadablePDFRevisionWithLaterChanges(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	kit, v := readableKit(t)
	d := pades.New(1)
	d.AddTextField("name", "")
	is.NoErr(d.Sign(pades.Options{PKI: kit.PKI.PKI, Signer: kit.PKI.SignerEUQES, SigningTime: kit.Time.Add(-time.Hour)}))
	is.NoErr(d.FillTextField("name", "Maria Muster"))
	s := summaryOf(t, v, validation.Document{Name: "form.pdf", Data: bytes.Clone(d.Bytes())}).Signatures[0]
	is.Equal(len(s.SignatureScope), 1)
	sc := s.SignatureScope[0]
	is.Equal(sc.Kind, verdict.ScopePartial)
	is.True(strings.HasPrefix(sc.Description, "Revision 3 of 4 of the PDF document, not the whole document: a later update was added after the signature; "))
	is.True(strings.Contains(sc.Description, "form fields were filled in or changed after signing")) // the reader's finding, in words
}

// An ASiC-E signature covers the container's files, each by name.
func TestReadableContainerFiles(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	kit, v := readableKit(t)
	doc, err := kit.Sign(validationtest.ASiC, validationtest.Signature{Container: asic.ASiCE})
	is.NoErr(err)
	s := summaryOf(t, v, doc).Signatures[0]
	var names []string
	for _, sc := range s.SignatureScope {
		is.Equal(sc.Kind, verdict.ScopeFull)
		is.Equal(sc.Description, `The whole file "`+sc.Name+`" of the ASiC-E container.`)
		names = append(names, sc.Name)
	}
	is.Equal(names, s.SignedData) // the same files, described
	for _, f := range asic.DefaultFiles() {
		is.True(slices.Contains(names, f.Name))
	}
}

// A counter-signature covers its parent's signature value.
func TestReadableCounterSignature(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	kit, v := readableKit(t)
	p := kit.PKI.PKI
	at := kit.Time.Add(-time.Hour)
	parent := cmswrite.Signer{Certificate: p.SignerEUQES.Certificate, Key: p.SignerEUQES.Key, SigningTime: at,
		CounterSigners: []cmswrite.Signer{{Certificate: p.SealEUQES.Certificate, Key: p.SealEUQES.Key, SigningTime: at}}}
	der, err := cmswrite.Sign([]byte("contract"), []cmswrite.Signer{parent}, cmswrite.SignOptions{Certificates: []*x509.Certificate{p.IntermediateEU.Certificate}})
	is.NoErr(err)
	sum := summaryOf(t, v, validation.Document{Name: "countersigned.p7m", Data: der})
	is.Equal(len(sum.Signatures), 2)
	first, counter := sum.Signatures[0], sum.Signatures[1]
	is.Equal(counter.CounterSignatureOf, first.SignatureID)
	is.Equal(described(counter.SignatureScope), []verdict.SignatureScope{{Kind: verdict.ScopeCounterSignature, Name: first.SignatureID,
		Description: "The signature value of signature " + first.SignatureID + ", which this signature counter-signs."}})
	is.Equal(counter.SignedBy.Kind, verdict.SignerOrganization)
}

// The verdict names the trust data it was judged against: each list's
// copy in use by its bytes' SHA-256 and its sequence number, and the
// SHA-256 over them, as docs/validate-api.md says to recompute it; the
// trust status names the same snapshot.
func TestTrustSnapshot(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	kit, v := readableKit(t)
	doc, err := kit.Sign(validationtest.CAdES, validationtest.Signature{})
	is.NoErr(err)
	snap := summaryOf(t, v, doc).TrustData.Snapshot
	is.True(snap != nil)
	files := map[string]bool{}
	for _, f := range kit.ListFiles() {
		data, err := os.ReadFile(f)
		is.NoErr(err)
		sum := sha256.Sum256(data)
		files[hex.EncodeToString(sum[:])] = true
	}
	is.Equal(len(snap.Lists), len(files)) // every list file is in use
	var text strings.Builder
	for _, l := range snap.Lists {
		is.True(files[l.SHA256]) // the list's own digest is its file's
		fmt.Fprintf(&text, "list %s %s %d %s\n", l.Kind, l.Territory, l.SequenceNumber, l.SHA256)
	}
	is.Equal(snap.PrivateAnchors, []string{})
	sum := sha256.Sum256([]byte(text.String()))
	is.Equal(snap.SHA256, hex.EncodeToString(sum[:]))
	is.Equal(v.TrustStatus(kit.Time).Snapshot, snap)

	// A private anchor counts: another snapshot.
	other := v.Trusting(kit.PKI.Root.Certificate)
	res, err := other.Validate(context.Background(), doc)
	is.NoErr(err)
	withAnchor := res.Summary.TrustData.Snapshot
	rootSum := sha256.Sum256(kit.PKI.Root.Certificate.Raw)
	is.Equal(withAnchor.PrivateAnchors, []string{hex.EncodeToString(rootSum[:])})
	is.True(withAnchor.SHA256 != snap.SHA256)
}

// described is scopes without what a catalogue words them from
// (adapters/catalog tests that the English template is the description).
func described(scopes []verdict.SignatureScope) []verdict.SignatureScope {
	out := make([]verdict.SignatureScope, len(scopes))
	for i, s := range scopes {
		out[i] = verdict.SignatureScope{Kind: s.Kind, Name: s.Name, Description: s.Description}
	}
	return out
}
