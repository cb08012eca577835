package cades_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/domain/ades"
	fixture "github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/cmswrite"
	"github.com/svc-dss/dss/ports"
)

var levelOf = map[fixture.Level]ades.Level{
	fixture.B: ades.LevelB, fixture.T: ades.LevelT, fixture.LT: ades.LevelLT, fixture.LTA: ades.LevelLTA,
}

// wantLevel is the level the reader finds for a fixture: the level built,
// except that without revocation data LT is not reached (and so neither
// is LTA). A broken archive time-stamp still counts: the reader reports
// presence, the process drops the level on the failed imprint.
func wantLevel(l fixture.Level, d fixture.Defect) ades.Level {
	if d == fixture.MissingRevocation {
		return ades.LevelT
	}
	return levelOf[l]
}

// applicable says whether Sign builds defect d at level l.
func applicable(d fixture.Defect, l fixture.Level) bool {
	switch d {
	case fixture.MissingRevocation:
		return l >= fixture.LT
	case fixture.TSANotTrusted, fixture.BrokenSignatureTimestamp, fixture.BrokenTimestampToken:
		return l >= fixture.T
	case fixture.BrokenArchiveTimestamp:
		return l == fixture.LTA
	}
	return true
}

// TestFixtures reads every defect at every level, attached and detached,
// and checks that the evidence states the defect's facts.
func TestFixtures(t *testing.T) {
	for _, d := range fixture.Defects() {
		for _, l := range []fixture.Level{fixture.B, fixture.T, fixture.LT, fixture.LTA} {
			if !applicable(d, l) {
				continue
			}
			for _, detached := range []bool{false, true} {
				name := fmt.Sprintf("%v/%v/detached=%v", d, l, detached)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					sig := sign(t, fixture.Options{Level: l, Detached: detached, Defect: d})
					var sigs []ades.Signature
					if detached {
						sigs = read(t, sig, content)
					} else {
						sigs = read(t, sig)
					}
					if len(sigs) != 1 {
						t.Fatalf("%d signatures", len(sigs))
					}
					checkFixture(t, sigs[0], d, l, "RSA-SHA256")
				})
			}
		}
	}
}

// TestAlgorithms reads every level signed with RSA PKCS #1 v1.5,
// RSASSA-PSS and ECDSA.
func TestAlgorithms(t *testing.T) {
	p := testPKI(t)
	for _, l := range []fixture.Level{fixture.B, fixture.T, fixture.LT, fixture.LTA} {
		for _, c := range []struct {
			alg  fixture.Algorithm
			ec   bool
			name string
		}{
			{fixture.RSAPKCS1v15, false, "RSA-SHA256"},
			{fixture.RSAPSS, false, "RSASSA-PSS-SHA256"},
			{fixture.ECDSA, true, "ECDSA-SHA256"},
		} {
			for _, detached := range []bool{false, true} {
				t.Run(fmt.Sprintf("%v/%s/detached=%v", l, c.name, detached), func(t *testing.T) {
					t.Parallel()
					o := fixture.Options{Level: l, Detached: detached, Algorithm: c.alg}
					if c.ec {
						o.Signer = p.SignerECDSA
					}
					sig := sign(t, o)
					var parts [][]byte
					if detached {
						// A wrong part first: the matching one is used.
						parts = [][]byte{[]byte("another file"), content}
					}
					sigs := read(t, sig, parts...)
					checkFixture(t, sigs[0], fixture.NoDefect, l, c.name)
				})
			}
		}
	}
}

// checkFixture checks the evidence of a fixture with defect d at level l.
func checkFixture(t *testing.T, s ades.Signature, d fixture.Defect, l fixture.Level, alg string) {
	t.Helper()
	if s.Format != ades.CAdES || len(s.ID) != 18 || s.ID[:2] != "S-" {
		t.Errorf("format %v, ID %q", s.Format, s.ID)
	}
	if got, want := s.Level, wantLevel(l, d); got != want {
		t.Errorf("level %v, want %v", got, want)
	}
	digest := map[fixture.Defect]string{fixture.SHA1Signature: "SHA-1", fixture.MD5Signature: "MD5"}[d]
	if digest == "" {
		digest = "SHA-256"
	}
	switch d {
	case fixture.SHA1Signature:
		alg = "RSA-SHA1"
	case fixture.MD5Signature:
		alg = "RSA-MD5"
	}
	if len(s.DataObjects) != 1 || !s.DataObjects[0].Found || s.DataObjects[0].DigestAlgorithm != digest {
		t.Fatalf("data objects %+v, want one %s digest", s.DataObjects, digest)
	}
	if got, want := s.DataObjects[0].Intact, d != fixture.TamperedContent; got != want {
		t.Errorf("intact %v, want %v", got, want)
	}
	if !s.Value.Done || s.Value.Algorithm != alg {
		t.Errorf("value check %+v, want done with %s", s.Value, alg)
	}
	contentType := d == fixture.ContentTypeMismatch || d == fixture.ContentTypeMissing || d == fixture.ContentTypeDoubled
	if got, want := s.Value.Valid, d != fixture.BadSignatureValue && !contentType; got != want {
		t.Errorf("value valid %v, want %v (%+v)", got, want, s.Value)
	}
	if contentType && s.Value.Reason != cades.CodeContentTypeMismatch {
		t.Errorf("value check %+v, want the reason %s", s.Value, cades.CodeContentTypeMismatch)
	}
	if s.SigningCertificate == nil {
		t.Errorf("no signing certificate")
	}
	okRef := d != fixture.WrongSigningCertRef
	if r := s.Reference; !r.Present || !r.IssuerSerialPresent || r.DigestMatched != okRef || r.IssuerSerialMatched != okRef {
		t.Errorf("reference %+v, want matched %v", r, okRef)
	}
	if !s.ClaimedSigningTime.Equal(signingTime) {
		t.Errorf("claimed signing time %v", s.ClaimedSigningTime)
	}
	if len(s.Certificates) == 0 {
		t.Errorf("no certificates")
	}

	sts := timestampsOf(s, ades.SignatureTimestamp)
	if want := l >= fixture.T; (len(sts) == 1) != want {
		t.Fatalf("%d signature time-stamps at %v", len(sts), l)
	}
	for _, ts := range sts {
		// The broken time-stamps are broken in their evidence, and only
		// there: the signature's own checks above hold.
		okImprint, okValue := d != fixture.BrokenSignatureTimestamp, d != fixture.BrokenTimestampToken
		if !ts.Imprint.Done || ts.Imprint.Valid != okImprint || !ts.Value.Done || ts.Value.Valid != okValue || ts.TSACertificate == nil || ts.GenTime.IsZero() ||
			!ts.Reference.Present || !ts.Reference.DigestMatched || len(ts.Certificates) == 0 {
			t.Errorf("signature time-stamp %+v, want imprint valid %v, value valid %v", ts, okImprint, okValue)
		}
	}
	ats := timestampsOf(s, ades.ArchiveTimestamp)
	if want := l == fixture.LTA; (len(ats) == 1) != want {
		t.Fatalf("%d archive time-stamps at %v", len(ats), l)
	}
	for _, ts := range ats {
		if got, want := ts.Imprint.Valid, d != fixture.BrokenArchiveTimestamp; !ts.Imprint.Done || got != want {
			t.Errorf("archive imprint %+v, want valid %v", ts.Imprint, want)
		}
		if !ts.Value.Valid {
			t.Errorf("archive time-stamp value %+v", ts.Value)
		}
	}

	if l >= fixture.LT {
		wantCRL := d != fixture.MissingRevocation
		wantOCSP := wantCRL && d != fixture.UntrustedRoot
		if (len(s.CRLs) > 0) != wantCRL || (len(s.OCSPResponses) > 0) != wantOCSP {
			t.Errorf("%d CRLs, %d OCSP responses", len(s.CRLs), len(s.OCSPResponses))
		}
	} else if len(s.CRLs)+len(s.OCSPResponses) > 0 {
		t.Errorf("revocation data below LT")
	}
	if d == fixture.NoDefect && len(s.Problems) > 0 {
		t.Errorf("problems %+v", s.Problems)
	}
}

// TestDetachedWithoutContent: the signed data is not found, the rest is
// read.
func TestDetachedWithoutContent(t *testing.T) {
	for _, l := range []fixture.Level{fixture.B, fixture.LTA} {
		sigs := read(t, sign(t, fixture.Options{Level: l, Detached: true}))
		s := sigs[0]
		if len(s.DataObjects) != 1 || s.DataObjects[0].Found || s.DataObjects[0].Intact {
			t.Errorf("%v: data objects %+v", l, s.DataObjects)
		}
		if !s.Value.Valid || s.Level != levelOf[l] {
			t.Errorf("%v: value %+v level %v", l, s.Value, s.Level)
		}
		for _, ts := range timestampsOf(s, ades.ArchiveTimestamp) {
			if ts.Imprint.Done || ts.Imprint.Reason != cades.CodeNoContent {
				t.Errorf("archive imprint %+v without the content", ts.Imprint)
			}
		}
	}
}

// TestWrongDetachedContent: a part that is not the signed one is found
// but not intact.
func TestWrongDetachedContent(t *testing.T) {
	s := read(t, sign(t, fixture.Options{Level: fixture.B, Detached: true}), []byte("Bye World"))[0]
	if !s.DataObjects[0].Found || s.DataObjects[0].Intact || !s.Value.Valid {
		t.Errorf("%+v %+v", s.DataObjects, s.Value)
	}
}

// TestDetachedPartNamed: of two detached parts, the data object is the
// one whose digest matched, by its file name and position; one that
// matches none keeps the generic name and no part.
func TestDetachedPartNamed(t *testing.T) {
	sig := sign(t, fixture.Options{Level: fixture.B, Detached: true})
	for _, c := range []struct {
		name  string
		parts []ports.Detached
		want  ades.DataObject
	}{
		{"the second matches", []ports.Detached{{Name: "annex.txt", Data: []byte("another file")}, {Name: "contract.txt", Data: content}},
			ades.DataObject{Name: "contract.txt", Part: 2, Found: true, Intact: true}},
		{"unnamed", []ports.Detached{{Data: []byte("another file")}, {Data: content}},
			ades.DataObject{Name: "detached part 2", Part: 2, Found: true, Intact: true}},
		{"none matches", []ports.Detached{{Name: "annex.txt", Data: []byte("another file")}, {Name: "notes.txt", Data: []byte("notes")}},
			ades.DataObject{Name: "content", Found: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			sigs, err := cades.NewReader().Read(context.Background(), ports.Document{Name: "contract.p7s", Data: sig, Detached: c.parts})
			is.NoErr(err)
			is.Equal(len(sigs[0].DataObjects), 1)
			d := sigs[0].DataObjects[0]
			is.Equal(ades.DataObject{Name: d.Name, Part: d.Part, Found: d.Found, Intact: d.Intact}, c.want)
		})
	}
}

func TestDeterministicIDs(t *testing.T) {
	sig := sign(t, fixture.Options{Level: fixture.T})
	a, b := read(t, sig), read(t, sig)
	if a[0].ID != b[0].ID {
		t.Errorf("IDs %q and %q", a[0].ID, b[0].ID)
	}
}

func TestPEM(t *testing.T) {
	sig := sign(t, fixture.Options{Level: fixture.B})
	p := pem.EncodeToMemory(&pem.Block{Type: "PKCS7", Bytes: sig})
	s := read(t, p)
	if len(s) != 1 || !s[0].Value.Valid {
		t.Errorf("%+v", s)
	}
}

func TestErrors(t *testing.T) {
	sig := sign(t, fixture.Options{Level: fixture.LT})
	for _, c := range []struct {
		name string
		data []byte
		want error
	}{
		{"text", []byte("hello, world"), ports.ErrNotThisFormat},
		{"pdf", []byte("%PDF-1.7\n"), ports.ErrNotThisFormat},
		{"empty", nil, ports.ErrNotThisFormat},
		{"other SEQUENCE", []byte{0x30, 0x03, 0x02, 0x01, 0x00}, ports.ErrNotThisFormat},
		{"truncated", sig[:len(sig)/2], ports.ErrUnreadable},
		{"truncated header", sig[:20], ports.ErrUnreadable},
		{"bad PEM", []byte("-----BEGIN PKCS7-----\n!!!\n"), ports.ErrUnreadable},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := cades.NewReader().Read(context.Background(), ports.Document{Data: c.data})
			if !errors.Is(err, c.want) {
				t.Errorf("error %v, want %v", err, c.want)
			}
		})
	}
}

// TestArchiveImprintAgreesWithFixture: the fixture and the reader share
// ArchiveImprintV3.
func TestArchiveImprintAgreesWithFixture(t *testing.T) {
	sig := sign(t, fixture.Options{Level: fixture.LTA, Detached: true})
	imprint, _, err := fixture.ArchiveTimestampImprint(sig, content)
	if err != nil {
		t.Fatal(err)
	}
	if len(imprint) != 32 {
		t.Errorf("imprint %x", imprint)
	}
}

// ReadEmbedded streams the signed content (a PDF's byte ranges) and gives
// the evidence Read gives for the same bytes held in memory.
func TestReadEmbedded(t *testing.T) {
	for _, level := range []fixture.Level{fixture.B, fixture.T} {
		t.Run(level.String(), func(t *testing.T) {
			is := is.New(t)
			sig := sign(t, fixture.Options{Level: level, Detached: true})
			want := read(t, sig, content)
			half := len(content) / 2
			opened := 0
			stream := func() io.Reader {
				opened++
				return io.MultiReader(bytes.NewReader(content[:half]), bytes.NewReader(content[half:]))
			}
			got, err := cades.ReadEmbedded(context.Background(), sig, cades.Content{Open: stream}, nil, ades.PAdES)
			is.NoErr(err)
			is.Equal(len(got), 1)
			is.Equal(got[0].Format, ades.PAdES)
			is.Equal(got[0].ID, want[0].ID)
			want[0].DataObjects[0].Part = 0 // a PDF's byte ranges are the document's, not a supplied part
			is.Equal(got[0].DataObjects, want[0].DataObjects)
			is.Equal(got[0].Value, want[0].Value)
			is.Equal(got[0].Level, want[0].Level)
			is.Equal(len(got[0].Timestamps), len(want[0].Timestamps))
			is.Equal(opened, 1) // hashed once

			other := func() io.Reader { return bytes.NewReader([]byte("other content")) }
			got, err = cades.ReadEmbedded(context.Background(), sig, cades.Content{Open: other}, nil, ades.PAdES)
			is.NoErr(err)
			is.True(got[0].DataObjects[0].Found && !got[0].DataObjects[0].Intact)

			_, err = cades.ReadEmbedded(context.Background(), []byte("not CMS"), cades.Content{Open: stream}, nil, ades.PAdES)
			is.True(errors.Is(err, ports.ErrUnreadable))
		})
	}
}

// TestCounterSignatures: each counter-signature, nested ones included,
// is a signature of its own naming its parent, whose signed data is the
// parent's signature value, found and intact by its message digest.
func TestCounterSignatures(t *testing.T) {
	p := testPKI(t)
	nested := cmswrite.Signer{Certificate: p.SignerRSA.Certificate, Key: p.SignerRSA.Key, SigningTime: signingTime}
	counter := cmswrite.Signer{Certificate: p.SignerECDSA.Certificate, Key: p.SignerECDSA.Key, SigningTime: signingTime,
		CounterSigners: []cmswrite.Signer{nested}}
	parent := cmswrite.Signer{Certificate: p.SignerRSA.Certificate, Key: p.SignerRSA.Key, SigningTime: signingTime,
		CounterSigners: []cmswrite.Signer{counter}}
	der, err := cmswrite.Sign(content, []cmswrite.Signer{parent}, cmswrite.SignOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sigs := read(t, der)
	if len(sigs) != 1 {
		t.Fatalf("%d signatures, want 1 with its counter-signatures", len(sigs))
	}
	s := sigs[0]
	if s.CounterSignatureOf != "" || len(s.CounterSignatures) != 1 {
		t.Fatalf("parent: counter-signature of %q, %d counter-signatures", s.CounterSignatureOf, len(s.CounterSignatures))
	}
	c := s.CounterSignatures[0]
	if len(c.CounterSignatures) != 1 {
		t.Fatalf("%d nested counter-signatures", len(c.CounterSignatures))
	}
	n := c.CounterSignatures[0]
	for _, tt := range []struct {
		name   string
		sig    ades.Signature
		parent string
		signer *x509.Certificate
	}{
		{"counter-signature", c, s.ID, p.SignerECDSA.Certificate},
		{"nested counter-signature", n, c.ID, p.SignerRSA.Certificate},
	} {
		if tt.sig.CounterSignatureOf != tt.parent || tt.sig.ID == tt.parent {
			t.Errorf("%s: ID %q counter-signature of %q, want of %q", tt.name, tt.sig.ID, tt.sig.CounterSignatureOf, tt.parent)
		}
		if len(tt.sig.DataObjects) != 1 || !tt.sig.DataObjects[0].Found || !tt.sig.DataObjects[0].Intact {
			t.Errorf("%s: data objects %+v", tt.name, tt.sig.DataObjects)
		}
		if !tt.sig.Value.Valid || tt.sig.SigningCertificate == nil || !tt.sig.SigningCertificate.Equal(tt.signer) {
			t.Errorf("%s: value %+v, signer %v", tt.name, tt.sig.Value, tt.sig.SigningCertificate)
		}
	}
}

// TestCounterSignatureContentType: a counter-signature carrying a
// content-type attribute, which RFC 5652 (11.1) forbids there, is
// reported with CADES_COUNTER_SIGNATURE_CONTENT_TYPE; one without it is
// not, and the parent is never.
func TestCounterSignatureContentType(t *testing.T) {
	p := testPKI(t)
	dataOID, err := asn1.Marshal(cms.OIDData)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		attrs []cms.Attribute
		want  bool
	}{
		{"without content-type", nil, false},
		{"with content-type", []cms.Attribute{{Type: cms.OIDAttrContentType, Values: [][]byte{dataOID}}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			counter := cmswrite.Signer{Certificate: p.SignerECDSA.Certificate, Key: p.SignerECDSA.Key, SigningTime: signingTime,
				SignedAttributes: tc.attrs}
			parent := cmswrite.Signer{Certificate: p.SignerRSA.Certificate, Key: p.SignerRSA.Key, SigningTime: signingTime,
				CounterSigners: []cmswrite.Signer{counter}}
			der, err := cmswrite.Sign(content, []cmswrite.Signer{parent}, cmswrite.SignOptions{})
			if err != nil {
				t.Fatal(err)
			}
			sigs := read(t, der)
			if len(sigs) != 1 || len(sigs[0].CounterSignatures) != 1 {
				t.Fatalf("%d signatures, want 1 with 1 counter-signature", len(sigs))
			}
			has := func(s ades.Signature) bool {
				return slices.ContainsFunc(s.Problems, func(p ades.Problem) bool { return p.Code == cades.CodeCounterSignatureContentType })
			}
			if has(sigs[0]) {
				t.Errorf("parent reported: %+v", sigs[0].Problems)
			}
			if c := sigs[0].CounterSignatures[0]; has(c) != tc.want {
				t.Errorf("counter-signature problems %+v, want %s: %v", c.Problems, cades.CodeCounterSignatureContentType, tc.want)
			}
		})
	}
}
