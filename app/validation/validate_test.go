package validation_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/cmswrite"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
)

// Signing times of the grid, each chosen for the story of its rows.
var (
	// signedYesterday is half a day before pki.ReferenceTime: the OCSP
	// responses (12 h) and CRLs (24 h) embedded at LT are still fresh
	// when the signature is validated, so no row depends on past
	// signature validation unless it is about it.
	signedYesterday = pki.ReferenceTime.Add(-12 * time.Hour)
	// signedWhileValid is inside the expired signer's validity
	// (2020-01-01 to 2021-01-01).
	signedWhileValid = time.Date(2020, time.June, 1, 12, 0, 0, 0, time.UTC)
	// signedBeforeRevocation is before pki.RevocationTime (2026-01-15).
	signedBeforeRevocation = time.Date(2025, time.December, 1, 12, 0, 0, 0, time.UTC)
	// revokedDataTime is after pki.RevocationTime: an LT signature
	// augmented then embeds an OCSP response and a CRL saying "revoked".
	revokedDataTime = time.Date(2026, time.February, 1, 12, 0, 0, 0, time.UTC)
)

// pkiWorld is a running fixture PKI, its trusted lists loaded into a
// Service, and the validation time everything is pinned to.
type pkiWorld struct {
	pki *pki.Server
	eco *tl.Ecosystem
	v   *validation.Validator
	at  time.Time
}

// newValidation starts the fixture PKI with its clock pinned to at, so
// that the OCSP responses and CRLs the validator fetches are those of
// the validation time, publishes the fixture lists issued an hour before
// at, and refreshes a Service's trust store from them. The
// intermediate CA is on the DE, FR and CH lists.
func newValidation(t *testing.T, at time.Time, extra ...string) *pkiWorld {
	t.Helper()
	return newValidationWith(t, at, tl.EcosystemOptions{}, extra...)
}

// newValidationWith is newValidation over an ecosystem made with o.
func newValidationWith(t *testing.T, at time.Time, o tl.EcosystemOptions, extra ...string) *pkiWorld {
	t.Helper()
	srv := pki.Start(t)
	srv.SetClock(func() time.Time { return at })
	eco, err := tl.NewEcosystemWith(srv.PKI, at, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eco.Close() })
	e := &env{eco: eco, cacheDir: filepath.Join(t.TempDir(), "tl-cache"), clock: &clock{now: at}, logs: &logBuffer{}}
	// The fixture services are on 127.0.0.1.
	v, _ := e.service(t, append([]string{"SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false"}, extra...)...)
	v.Refresh(context.Background())
	if td := v.TrustStatus(at); !td.Current {
		t.Fatalf("fixture lists not loaded: %+v", td)
	}
	return &pkiWorld{pki: srv, eco: eco, v: v, at: at}
}

// sign signs content with o on the running PKI, RSA PKCS #1 v1.5 by the
// RSA signer unless o says otherwise.
func (s *pkiWorld) sign(t testing.TB, content []byte, o cades.Options) []byte {
	t.Helper()
	o.PKI = s.pki.PKI
	if o.Signer == nil {
		o.Signer = s.pki.SignerRSA
	}
	if o.Algorithm == cades.Default {
		o.Algorithm = cades.RSAPKCS1v15
	}
	der, err := cades.Sign(content, o)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// document is the upload for a signature over content.
func document(sig, content []byte, detached bool) validation.Document {
	doc := validation.Document{Name: "signature.p7m", Data: sig}
	if detached {
		doc.Detached = []validation.Part{{Name: "content.txt", Data: content}}
	}
	return doc
}

// outcome is what a grid row asserts of the single signature's report.
type outcome struct {
	indication    verdict.Indication
	subIndication verdict.SubIndication // "" asserts null
	format        string
	framework     string
	country       string   // "" asserts null
	warnings      []string // codes that must be among the warnings
}

// passed is TOTAL_PASSED at format, anchored in the Swiss list: the
// fixture intermediate CA is on the DE, FR and CH lists, and Swiss
// precedence (0016) picks CH.
func passed(format string, warnings ...string) outcome {
	return outcome{indication: verdict.TotalPassed, format: format, framework: "CH_ZERTES", country: "CH", warnings: warnings}
}

// failed is a non-passing indication whose path still reaches the Swiss
// anchor (0018: a path is built, and reported, even when CV concluded).
func failed(indication verdict.Indication, sub verdict.SubIndication, format string, warnings ...string) outcome {
	return outcome{indication: indication, subIndication: sub, format: format, framework: "CH_ZERTES", country: "CH", warnings: warnings}
}

// unanchored is a non-passing indication without a path to an anchor:
// trustFramework UNKNOWN, anchorCountry null, never defaulted to EU.
func unanchored(indication verdict.Indication, sub verdict.SubIndication, format string) outcome {
	return outcome{indication: indication, subIndication: sub, format: format, framework: "UNKNOWN"}
}

const (
	formatB   = "CAdES_BASELINE_B"
	formatT   = "CAdES_BASELINE_T"
	formatLT  = "CAdES_BASELINE_LT"
	formatLTA = "CAdES_BASELINE_LTA"
)

var formats = map[cades.Level]string{cades.B: formatB, cades.T: formatT, cades.LT: formatLT, cades.LTA: formatLTA}

// TestValidateFixtureGrid validates real CAdES fixtures, every defect at
// every level it applies to, through the Validator against the fixture
// trusted lists, at pki.ReferenceTime. The expectations are the
// fixtures' (fixtures/cades, doc.go) carried to each level with the
// rules of docs/decisions/0018-etsi-process.md: signer defects are the
// B-level outcome only at B; a signature time-stamp inside the signer's
// validity and before its revocation cures them by past signature
// validation (5.5.4); signatureFormat is the level of the structure, and
// a warning says when the evidence supports less.
func TestValidateFixtureGrid(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	content := []byte("The grid's signed content.\n")

	type row struct {
		defect cades.Defect
		level  cades.Level
		opts   cades.Options // SigningTime and beyond; PKI filled in
		want   outcome
	}
	var rows []row
	at := func(d cades.Defect, l cades.Level, o cades.Options, want outcome) {
		o.Level, o.Defect = l, d
		if o.SigningTime.IsZero() {
			o.SigningTime = signedYesterday
		}
		rows = append(rows, row{d, l, o, want})
	}
	every := []cades.Level{cades.B, cades.T, cades.LT, cades.LTA}
	for _, l := range every {
		f := formats[l]
		at(cades.NoDefect, l, cades.Options{}, passed(f))
		// CV concludes; the time-stamps are over the signature value
		// and (attached) the tampered content, so they stay intact and
		// the level is as built.
		at(cades.TamperedContent, l, cades.Options{}, failed(verdict.TotalFailed, verdict.SubHashFailure, f))
		at(cades.BadSignatureValue, l, cades.Options{}, failed(verdict.TotalFailed, verdict.SubSigCryptoFailure, f))
		// ISC concludes: no path is chosen. The reader still names the
		// signer by its identifier, so the embedded revocation data is
		// the signing certificate's and the level stays as built.
		at(cades.WrongSigningCertRef, l, cades.Options{}, unanchored(verdict.Indeterminate, verdict.SubNoSigningCertificateFound, f))
		// XCV at the validation time concludes TOTAL_FAILED before
		// any POE is looked at (5.3.4).
		at(cades.NotYetValidSigner, l, cades.Options{}, failed(verdict.TotalFailed, verdict.SubNotYetValid, f))
		// RFC 5652 signature verification fails on the content-type
		// attribute: CV concludes, as for a bad value (issue 16).
		at(cades.ContentTypeMismatch, l, cades.Options{}, failed(verdict.TotalFailed, verdict.SubSigCryptoFailure, f, "CADES_CONTENT_TYPE_MISMATCH"))
		at(cades.ContentTypeMissing, l, cades.Options{}, failed(verdict.TotalFailed, verdict.SubSigCryptoFailure, f, "CADES_CONTENT_TYPE_MISMATCH"))
		at(cades.ContentTypeDoubled, l, cades.Options{}, failed(verdict.TotalFailed, verdict.SubSigCryptoFailure, f, "CADES_CONTENT_TYPE_MISMATCH"))
	}
	// Cryptographic constraints (issue 16): SHA-1, MD5 and a 1024-bit RSA
	// key are acceptable only before 2010 (2004 for MD5); the fixture
	// time-stamps are of 2026, no proof of existence before the date.
	for _, l := range every {
		for _, d := range []cades.Defect{cades.SHA1Signature, cades.MD5Signature, cades.WeakRSAKey} {
			at(d, l, cades.Options{}, failed(verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, formats[l]))
		}
	}
	// A signature time-stamp before the signer's issuance: at B there is
	// none; from T the proof of existence precedes notBefore (5.5.4).
	at(cades.TimestampBeforeIssuance, cades.B, cades.Options{}, passed(formatB))
	for _, l := range every[1:] {
		at(cades.TimestampBeforeIssuance, l, cades.Options{}, failed(verdict.TotalFailed, verdict.SubNotYetValid, formats[l]))
	}
	// No path to an anchor. signatureFormat is the structure's level
	// (0018 "Level"), and for a signer reaching no anchor LT is taken as
	// found: no LEVEL_NOT_SUPPORTED_BY_EVIDENCE.
	for _, l := range every {
		at(cades.UntrustedRoot, l, cades.Options{}, unanchored(verdict.Indeterminate, verdict.SubNoCertificateChainFound, formats[l]))
	}

	// Expired signer signing in 2020: at B no POE; from T a time-stamp
	// inside the validity and revocation data (online at T, embedded from
	// LT) let past signature validation pass. The 2020 data is long stale,
	// but the fixture TSA is itself on the lists (a QTST service), so its
	// time-stamps need no revocation data of their own.
	expired := cades.Options{SigningTime: signedWhileValid}
	at(cades.ExpiredSigner, cades.B, expired, failed(verdict.Indeterminate, verdict.SubOutOfBoundsNoPOE, formatB))
	at(cades.ExpiredSigner, cades.T, expired, passed(formatT, "EXPIRED_AFTER_POE"))
	at(cades.ExpiredSigner, cades.LT, expired, passed(formatLT, "EXPIRED_AFTER_POE"))
	at(cades.ExpiredSigner, cades.LTA, expired, passed(formatLTA, "EXPIRED_AFTER_POE"))

	// Revoked signer signing before the revocation; from LT the embedded
	// data is from after it, so the signature itself says "revoked".
	revoked := cades.Options{SigningTime: signedBeforeRevocation}
	revokedLT := cades.Options{SigningTime: signedBeforeRevocation, RevocationDataTime: revokedDataTime}
	at(cades.RevokedSigner, cades.B, revoked, failed(verdict.Indeterminate, verdict.SubRevokedNoPOE, formatB))
	at(cades.RevokedSigner, cades.T, revoked, passed(formatT, "REVOKED_AFTER_POE"))
	at(cades.RevokedSigner, cades.LT, revokedLT, passed(formatLT, "REVOKED_AFTER_POE"))
	at(cades.RevokedSigner, cades.LTA, revokedLT, passed(formatLTA, "REVOKED_AFTER_POE"))

	// The validator fetches the revocation data itself. Without a CRL or
	// OCSP response in the SignedData the structure is T (the reader's
	// level.go), so the evidence has nothing to fall short of.
	at(cades.MissingRevocation, cades.LT, cades.Options{}, passed(formatT))
	at(cades.MissingRevocation, cades.LTA, cades.Options{}, passed(formatT))

	// An untrusted TSA gives no POE, but the signer is valid at the
	// validation time; the TSA's trust is not needed for the level.
	at(cades.TSANotTrusted, cades.T, cades.Options{}, passed(formatT, "TIMESTAMP_NOT_TRUSTED"))
	at(cades.TSANotTrusted, cades.LT, cades.Options{}, passed(formatLT, "TIMESTAMP_NOT_TRUSTED"))
	at(cades.TSANotTrusted, cades.LTA, cades.Options{}, passed(formatLTA, "TIMESTAMP_NOT_TRUSTED"))

	// signatureFormat is the structure's LTA, as DSS reports it; the
	// evidence supports only LT and a warning says so (0018 "Level").
	at(cades.BrokenArchiveTimestamp, cades.LTA, cades.Options{}, passed(formatLTA, "ARCHIVE_TIMESTAMP_INVALID", "LEVEL_NOT_SUPPORTED_BY_EVIDENCE"))
	// A broken time-stamp is not a broken signature (issue 22): the
	// signature is judged on its own value and data; the time-stamp is a
	// warning and gives no proof of existence, and without an intact
	// signature time-stamp the evidence supports B.
	for _, l := range every[1:] {
		at(cades.BrokenSignatureTimestamp, l, cades.Options{}, passed(formats[l], "TIMESTAMP_INVALID", "LEVEL_NOT_SUPPORTED_BY_EVIDENCE"))
		at(cades.BrokenTimestampToken, l, cades.Options{}, passed(formats[l], "TIMESTAMP_INVALID", "LEVEL_NOT_SUPPORTED_BY_EVIDENCE"))
	}
	for _, l := range every {
		at(cades.BrokenContentTimestamp, l, cades.Options{}, passed(formats[l], "TIMESTAMP_INVALID"))
		at(cades.BrokenContentTimestamp, l, cades.Options{Detached: true}, passed(formats[l], "TIMESTAMP_INVALID"))
	}

	// Detached, RSA-PSS and ECDSA: the well-formed signature at every
	// level.
	variants := []struct {
		name string
		opts cades.Options
	}{
		{"detached", cades.Options{Detached: true}},
		{"RSA-PSS", cades.Options{Algorithm: cades.RSAPSS}},
		{"ECDSA", cades.Options{Signer: s.pki.SignerECDSA, Algorithm: cades.ECDSA}},
	}
	type variantRow struct {
		name string
		row
	}
	var all []variantRow
	for _, r := range rows {
		all = append(all, variantRow{"RSA-PKCS1v15/attached", r})
	}
	for _, v := range variants {
		for _, l := range every {
			o := v.opts
			o.Level, o.SigningTime = l, signedYesterday
			all = append(all, variantRow{v.name, row{cades.NoDefect, l, o, passed(formats[l])}})
		}
	}

	// Every defect the fixtures have is in the grid, so a new one fails
	// here until it gets its rows.
	for _, d := range cades.Defects() {
		if !slices.ContainsFunc(rows, func(r row) bool { return r.defect == d }) {
			t.Errorf("defect %v has no row", d)
		}
	}

	for _, r := range all {
		t.Run(fmt.Sprintf("%s/%v/%v", r.name, r.defect, r.level), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig := s.sign(t, content, r.opts)
			sum, err := validate(s.v, document(sig, content, r.opts.Detached), s.at)
			is.NoErr(err)
			is.Equal(sum.SignatureCount, 1)
			got := sum.Signatures[0]
			t.Logf("%s %s %v %s %s %v warnings=%v errors=%v", got.Indication, got.SignatureFormat, deref(got.SubIndication),
				got.TrustFramework, deref(got.AnchorCountry), got.AnchorDataAuthenticated, codes(got.Warnings), codes(got.Errors))
			is.Equal(got.Indication, r.want.indication)              // indication
			is.Equal(deref(got.SubIndication), r.want.subIndication) // subIndication ("" is null)
			is.Equal(got.SignatureFormat, r.want.format)             // signatureFormat
			is.Equal(got.TrustFramework, r.want.framework)           // trustFramework
			is.Equal(deref(got.AnchorCountry), r.want.country)       // anchorCountry ("" is null)
			for _, w := range r.want.warnings {
				is.True(slices.Contains(codes(got.Warnings), w)) // expected warning present
			}
			is.Equal(sum.Valid, got.Indication == verdict.TotalPassed) // valid is every signature TOTAL_PASSED
		})
	}
}

// TestValidateExtraAnchorIsPrivate checks the other source of trust: with
// no list loaded, the fixture root passed as ExtraAnchors anchors the
// signature, as a private anchor of framework UNKNOWN without a country.
func TestValidateExtraAnchorIsPrivate(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := newValidation(t, pki.ReferenceTime)
	content := []byte("anchored privately\n")
	sig := s.sign(t, content, cades.Options{Level: cades.LT, SigningTime: signedYesterday})

	// A validator on the same lists, never refreshed: no list loaded.
	e := &env{eco: s.eco, cacheDir: filepath.Join(t.TempDir(), "empty"), clock: &clock{now: s.at}, logs: &logBuffer{}}
	v, _ := e.service(t, "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false")

	tests := []struct {
		name    string
		anchors bool
		want    outcome
	}{
		// signatureFormat is the structure's level, whatever the trust
		// (0018 "Level").
		{"no anchor", false, unanchored(verdict.Indeterminate, verdict.SubNoCertificateChainFound, formatLT)},
		{"fixture root as extra anchor", true, outcome{indication: verdict.TotalPassed, format: formatLT, framework: "UNKNOWN"}},
	}
	for _, tt := range tests {
		w := v.At(s.at)
		if tt.anchors {
			w = w.Trusting(s.pki.Root.Certificate)
		}
		sum, err := validate(w, document(sig, content, false), time.Time{})
		is.NoErr(err)
		got := sum.Signatures[0]
		is.Equal(got.Indication, tt.want.indication)
		is.Equal(deref(got.SubIndication), tt.want.subIndication)
		is.Equal(got.SignatureFormat, tt.want.format)
		is.Equal(got.TrustFramework, tt.want.framework)
		is.Equal(got.AnchorCountry, (*string)(nil))
		is.True(!got.AnchorDataAuthenticated) // a private anchor is no authenticated list data
	}
}

// The issue: "a readable document that holds no signature is not an
// error: 200 with signatureCount 0 and valid false". A SignedData with
// no SignerInfo (a certs-only PKCS #7, RFC 5652 §5.1 allows the empty
// set) is such a document.
func TestValidateNoSignature(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := newValidation(t, pki.ReferenceTime)
	doc := validation.Document{Name: "certs-only.p7c", Data: certsOnly(t, s.pki.Intermediate.DER)}
	sum, err := validate(s.v, doc, s.at)
	is.NoErr(err) // a readable document without signature is no error
	is.Equal(sum.SignatureCount, 0)
	is.True(!sum.Valid)
	out, err := json.Marshal(sum)
	is.NoErr(err)
	is.True(bytes.Contains(out, []byte(`"signatures":[]`))) // an empty list, not null
}

// certsOnly returns a DER ContentInfo with a SignedData holding certs and
// no SignerInfo, as `openssl crl2pkcs7 -nocrl` writes.
func certsOnly(t *testing.T, certs ...[]byte) []byte {
	t.Helper()
	oidSignedData := []byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02}
	oidData := []byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddBytes(oidSignedData)
		b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1Int64(1)                                                               // version
				b.AddASN1(cbasn1.SET, func(*cryptobyte.Builder) {})                             // digestAlgorithms
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { b.AddBytes(oidData) }) // encapContentInfo, no content
				b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
					for _, c := range certs {
						b.AddBytes(c)
					}
				})
				b.AddASN1(cbasn1.SET, func(*cryptobyte.Builder) {}) // signerInfos
			})
		})
	})
	der, err := b.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// The same document at the same validation time against the same
// snapshot gives the same summary, byte for byte (validate.go's
// contract; the golden files rely on it).
func TestValidateDeterministic(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := newValidation(t, pki.ReferenceTime)
	content := []byte("twice\n")
	sig := s.sign(t, content, cades.Options{Level: cades.LTA, SigningTime: signedYesterday})
	var outs [][]byte
	for range 2 {
		sum, err := validate(s.v, document(sig, content, false), s.at)
		is.NoErr(err)
		out, err := json.Marshal(sum)
		is.NoErr(err)
		outs = append(outs, out)
	}
	is.Equal(string(outs[0]), string(outs[1]))
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func codes(ms []verdict.Message) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Code)
	}
	return out
}

// TestValidateTwoSigners: each SignerInfo of a CMS is a signature of its
// own, and one that fails makes the document not valid.
func TestValidateTwoSigners(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	untrusted, err := cades.NewUntrustedChain(p, p.SignerECDSA)
	if err != nil {
		t.Fatal(err)
	}
	signedAt := s.at.Add(-time.Hour)
	tests := []struct {
		name    string
		second  cmswrite.Signer
		extra   []*x509.Certificate
		results []string // indication/sub-indication of each signature, in document order
		valid   bool
	}{
		{"both trusted", cmswrite.Signer{Certificate: p.SignerECDSA.Certificate, Key: p.SignerECDSA.Key, SigningTime: signedAt}, nil,
			[]string{"TOTAL_PASSED/", "TOTAL_PASSED/"}, true},
		{"second untrusted", cmswrite.Signer{Certificate: untrusted.Signer, Key: p.SignerECDSA.Key, SigningTime: signedAt}, []*x509.Certificate{untrusted.Root},
			[]string{"TOTAL_PASSED/", "INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			first := cmswrite.Signer{Certificate: p.SignerRSA.Certificate, Key: p.SignerRSA.Key, SigningTime: signedAt}
			der, err := cmswrite.Sign([]byte("contract"), []cmswrite.Signer{first, tt.second},
				cmswrite.SignOptions{Certificates: append([]*x509.Certificate{p.Intermediate.Certificate}, tt.extra...)})
			is.NoErr(err)
			sum, err := validate(s.v, validation.Document{Name: "two.p7m", Data: der}, s.at)
			is.NoErr(err)
			is.Equal(sum.SignatureCount, 2)
			var got []string
			for _, r := range sum.Signatures {
				got = append(got, r.Indication.String()+"/"+deref(r.SubIndication).String())
			}
			// cmswrite.Sign orders SignerInfos as DER sorts them: compare as sets.
			slices.Sort(got)
			want := slices.Clone(tt.results)
			slices.Sort(want)
			is.Equal(got, want)
			is.True(sum.Signatures[0].SignatureID != sum.Signatures[1].SignatureID)
			is.Equal(sum.Valid, tt.valid)
		})
	}
}
