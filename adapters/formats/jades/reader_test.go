package jades_test

import (
	"bytes"
	"context"
	"crypto/sha512"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/jades"
	"github.com/svc-dss/dss/domain/ades"
	fixture "github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/ports"
)

var content = []byte(`{"title":"Hello, JAdES"}`)

// signFixture signs content with o on the test PKI, at signedAt, by
// the RSA signer unless o names one.
func signFixture(t *testing.T, o fixture.Options) (sig []byte, parts []ports.Detached) {
	t.Helper()
	o.PKI = testPKI(t)
	if o.Signer == nil {
		o.Signer = o.PKI.SignerRSA
	}
	if o.SigningTime.IsZero() {
		o.SigningTime = signedAt
	}
	out, det, err := fixture.Sign(content, o)
	if err != nil {
		t.Fatal(err)
	}
	if det != nil {
		parts = []ports.Detached{{Name: fixture.DefaultDocumentName, Data: det}}
	}
	return out, parts
}

// TestReadFixtures reads well-formed fixtures of every level,
// serialisation, packaging, algorithm and etsiU form: the value
// verifies, the data objects are found and intact, the reference
// matches, the time-stamps' imprints match, and the level is as built.
func TestReadFixtures(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	levels := map[fixture.Level]ades.Level{fixture.B: ades.LevelB, fixture.T: ades.LevelT, fixture.LT: ades.LevelLT, fixture.LTA: ades.LevelLTA}
	type variant struct {
		name string
		o    fixture.Options
	}
	var variants []variant
	for _, l := range []fixture.Level{fixture.B, fixture.T, fixture.LT, fixture.LTA} {
		for _, s := range []fixture.Serialization{fixture.Flattened, fixture.General, fixture.Compact} {
			if s == fixture.Compact && l > fixture.B {
				continue
			}
			for _, pk := range []fixture.Packaging{fixture.Attached, fixture.Detached, fixture.SigD, fixture.SigDByURI} {
				variants = append(variants, variant{fmt.Sprintf("%v/%v/%v", l, s, pk), fixture.Options{Level: l, Serialization: s, Packaging: pk}})
			}
		}
		variants = append(variants,
			variant{fmt.Sprintf("%v/PS256", l), fixture.Options{Level: l, Algorithm: fixture.RSAPSS}},
			variant{fmt.Sprintf("%v/ES256", l), fixture.Options{Level: l, Signer: p.SignerECDSA}},
			variant{fmt.Sprintf("%v/b64false", l), fixture.Options{Level: l, Unencoded: true}},
			variant{fmt.Sprintf("%v/b64false/sigD", l), fixture.Options{Level: l, Unencoded: true, Packaging: fixture.SigD}},
		)
		if l != fixture.LTA {
			variants = append(variants, variant{fmt.Sprintf("%v/clear etsiU", l), fixture.Options{Level: l, ClearComponents: true}})
		}
	}
	variants = append(variants, variant{"B/compact/b64false", fixture.Options{Serialization: fixture.Compact, Unencoded: true}})
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			data, parts := signFixture(t, v.o)
			sigs := read(t, data, parts...)
			is.Equal(len(sigs), 1)
			s := sigs[0]
			is.Equal(s.Format, ades.JAdES)
			is.Equal(s.Level, levels[v.o.Level])
			is.Equal(s.FormatName(), "JAdES_BASELINE_"+v.o.Level.String())
			is.True(s.Value.Done && s.Value.Valid) // value verifies
			want := "RSA-SHA256"
			switch {
			case v.o.Algorithm == fixture.RSAPSS:
				want = "RSASSA-PSS-SHA256"
			case v.o.Signer != nil:
				want = "ECDSA-SHA256"
			}
			is.Equal(s.Value.Algorithm, want)
			is.Equal(len(s.DataObjects), 1)
			is.True(s.DataObjects[0].Found && s.DataObjects[0].Intact)
			if v.o.Packaging != fixture.Attached {
				is.Equal(s.DataObjects[0].Name, fixture.DefaultDocumentName)
				is.Equal(s.DataObjects[0].Part, 1)
			}
			is.Equal(s.Reference, ades.CertificateReference{Present: true, DigestMatched: true, IssuerSerialPresent: true, IssuerSerialMatched: true})
			is.True(s.SigningCertificate != nil)
			signer := p.SignerRSA
			if v.o.Signer != nil {
				signer = v.o.Signer
			}
			is.True(s.SigningCertificate.Equal(signer.Certificate))
			is.Equal(s.ClaimedSigningTime, signedAt)
			is.Equal(len(s.Problems), 0) // no problem
			wantTS := map[fixture.Level]int{fixture.B: 0, fixture.T: 1, fixture.LT: 1, fixture.LTA: 2}[v.o.Level]
			is.Equal(len(s.Timestamps), wantTS)
			for i, ts := range s.Timestamps {
				is.True(ts.Imprint.Done && ts.Imprint.Valid) // imprint matches
				is.True(ts.Value.Done && ts.Value.Valid)     // token verifies
				is.True(ts.TSACertificate != nil)
				typ := ades.SignatureTimestamp
				if i == 1 {
					typ = ades.ArchiveTimestamp
				}
				is.Equal(ts.Type, typ)
			}
			if v.o.Level >= fixture.LT {
				is.True(len(s.CRLs) > 0)          // rVals crlVals
				is.Equal(len(s.OCSPResponses), 1) // rVals ocspVals
				is.True(len(s.Certificates) > 2)  // x5c and xVals
			}
		})
	}
}

// TestReadGeneralSerialisationSeveralSignatures: two entries of
// "signatures" are two signatures, each with its own evidence and ID.
func TestReadGeneralSerialisationSeveralSignatures(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := testPKI(t)
	payload := b64url.EncodeToString(content)
	entry := func(hdr string, signer any) string {
		id := p.SignerRSA
		if signer != nil {
			id = p.SignerECDSA
		}
		c := compact(t, id, hdr, payload)
		parts := strings.Split(c, ".")
		return fmt.Sprintf(`{"protected":%q,"signature":%q}`, parts[0], parts[2])
	}
	doc := fmt.Sprintf(`{"payload":%q,"signatures":[%s,%s]}`, payload,
		entry(header(p.SignerRSA, "RS256", ""), nil), entry(header(p.SignerECDSA, "ES256", ""), true))
	sigs := read(t, []byte(doc))
	is.Equal(len(sigs), 2)
	is.True(sigs[0].ID != sigs[1].ID)
	is.Equal(sigs[0].Value.Algorithm, "RSA-SHA256")
	is.Equal(sigs[1].Value.Algorithm, "ECDSA-SHA256")
	for _, s := range sigs {
		is.True(s.Value.Valid)
		is.Equal(s.Level, ades.LevelB)
	}
}

// TestReadDefects: what each defect of the fixtures shows in the
// evidence.
func TestReadDefects(t *testing.T) {
	t.Parallel()
	for _, d := range fixture.Defects() {
		for _, pk := range []fixture.Packaging{fixture.Attached, fixture.SigD} {
			t.Run(fmt.Sprintf("%v/%v", d, pk), func(t *testing.T) {
				t.Parallel()
				is := is.New(t)
				data, parts := signFixture(t, fixture.Options{Level: fixture.LTA, Packaging: pk, Defect: d})
				s := read(t, data, parts...)[0]
				sigTst, arcTst := s.Timestamps[0], s.Timestamps[1]
				is.Equal(s.Level, ades.LevelLTA) // the structure's level, whatever the defect
				switch d {
				case fixture.NoDefect, fixture.WrongX5tS256, fixture.UnknownCrit, fixture.BrokenSigTst, fixture.BrokenArcTst, fixture.CopiedTimestamp:
					is.True(s.Value.Valid)
				}
				switch d {
				case fixture.AlteredPayload:
					if pk == fixture.SigD {
						is.True(s.Value.Valid)
						is.True(s.DataObjects[0].Found && !s.DataObjects[0].Intact) // sigD digest mismatch
					} else {
						is.Equal(s.Value, ades.Check{Done: true, Algorithm: "RSA-SHA256", Reason: jades.CodeSignatureInvalid})
					}
				case fixture.AlteredProtectedHeader:
					is.Equal(s.Value, ades.Check{Done: true, Algorithm: "RSA-SHA256", Reason: jades.CodeSignatureInvalid})
					is.Equal(s.ClaimedSigningTime, signedAt.Add(time.Hour)) // what the altered header claims
				case fixture.WrongX5tS256:
					is.Equal(s.Reference, ades.CertificateReference{Present: true, IssuerSerialPresent: true, IssuerSerialMatched: true})
				case fixture.UnknownCrit:
					p, ok := problem(s, jades.CodeCritUnknown)
					is.True(ok)
					is.True(p.FormatFailure)
					is.True(strings.Contains(p.Message, `"exp"`)) // names the parameter
				case fixture.BrokenSigTst, fixture.CopiedTimestamp:
					is.Equal(sigTst.Imprint, ades.Check{Done: true, Algorithm: "SHA256", Reason: jades.CodeImprintMismatch})
					is.True(sigTst.Value.Valid) // the token itself is genuine
				case fixture.BrokenArcTst:
					is.True(sigTst.Imprint.Valid)
					is.Equal(arcTst.Imprint, ades.Check{Done: true, Algorithm: "SHA256", Reason: jades.CodeImprintMismatch})
				case fixture.NoDefect:
					is.True(sigTst.Imprint.Valid && arcTst.Imprint.Valid)
				}
			})
		}
	}
}

// TestReadDetachedParts: the parts a sigD names are matched by name; a
// missing one is not found, a wrong one not intact; a detached payload
// without sigD is the part supplied, none is not found.
func TestReadDetachedParts(t *testing.T) {
	t.Parallel()
	data, _ := signFixture(t, fixture.Options{Packaging: fixture.SigD})
	plain, _ := signFixture(t, fixture.Options{Packaging: fixture.Detached})
	byURI, _ := signFixture(t, fixture.Options{Packaging: fixture.SigDByURI})
	other := []byte(`{"title":"another"}`)
	tests := []struct {
		name  string
		data  []byte
		parts []ports.Detached
		want  ades.DataObject
		valid bool
	}{
		{"sigD, by name among others", data, []ports.Detached{{Name: "x.json", Data: other}, {Name: "document.json", Data: content}},
			ades.DataObject{Name: "document.json", Part: 2, Found: true, Intact: true}, true},
		{"sigD, by base name", data, []ports.Detached{{Name: "dir/document.json", Data: content}, {Name: "x.json", Data: other}},
			ades.DataObject{Name: "dir/document.json", Part: 1, Found: true, Intact: true}, true},
		{"sigD, the only part whatever its name", data, []ports.Detached{{Name: "renamed.json", Data: content}},
			ades.DataObject{Name: "renamed.json", Part: 1, Found: true, Intact: true}, true},
		{"sigD, missing", data, []ports.Detached{{Name: "x.json", Data: other}, {Name: "y.json", Data: content}},
			ades.DataObject{Name: "document.json"}, true},
		{"sigD, none", data, nil, ades.DataObject{Name: "document.json"}, true},
		{"sigD, wrong content", data, []ports.Detached{{Name: "document.json", Data: other}},
			ades.DataObject{Name: "document.json", Part: 1, Found: true}, true},
		{"detached payload, the part that verifies", plain, []ports.Detached{{Name: "x.json", Data: other}, {Name: "y.json", Data: content}},
			ades.DataObject{Name: "y.json", Part: 2, Found: true, Intact: true}, true},
		{"detached payload, none", plain, nil, ades.DataObject{Name: "payload"}, false},
		{"sigD by URI, by name", byURI, []ports.Detached{{Name: "x.json", Data: other}, {Name: "document.json", Data: content}},
			ades.DataObject{Name: "document.json", Part: 2, Found: true, Intact: true}, true},
		{"sigD by URI, missing", byURI, []ports.Detached{{Name: "x.json", Data: other}, {Name: "y.json", Data: content}},
			ades.DataObject{Name: "document.json"}, false},
		{"sigD by URI, wrong content: the value does not verify", byURI, []ports.Detached{{Name: "document.json", Data: other}},
			ades.DataObject{Name: "document.json", Part: 1, Found: true, Intact: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := read(t, tt.data, tt.parts...)[0]
			is.Equal(len(s.DataObjects), 1)
			got := s.DataObjects[0]
			got.Digest, got.DigestAlgorithm = nil, ""
			is.Equal(got, tt.want)
			is.Equal(s.Value.Valid, tt.valid)
		})
	}
}

// TestReadHeaderElements: each protected header parameter and what the
// evidence makes of it.
func TestReadHeaderElements(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	rsa := p.SignerRSA
	payload := b64url.EncodeToString(content)
	sha512 := func(b []byte) string {
		h := sha512.Sum512(b)
		return b64url.EncodeToString(h[:])
	}
	base := func(extra string) string {
		return fmt.Sprintf(`{"alg":"RS256","x5c":%s,"sigT":"2026-05-31T12:00:00Z","crit":["sigT"]%s}`, x5c(rsa), extra)
	}
	kid := b64url.EncodeToString(issuerSerialOf(t, rsa))
	tests := []struct {
		name  string
		hdr   string
		check func(is *is.I, s ades.Signature)
	}{
		{"x5t#o with SHA-512", base(fmt.Sprintf(`,"x5t#o":{"digAlg":"S512","digVal":%q}`, sha512(rsa.Certificate.Raw))), func(is *is.I, s ades.Signature) {
			is.Equal(s.Reference, ades.CertificateReference{Present: true, DigestMatched: true})
			is.Equal(s.Level, ades.LevelB)
		}},
		{"sigX5ts naming the chain", base(fmt.Sprintf(`,"sigX5ts":[{"digAlg":"S512","digVal":%q},{"digAlg":"S256","digVal":%q}]`, sha512(p.Intermediate.Certificate.Raw), x5tS256(rsa))), func(is *is.I, s ades.Signature) {
			is.Equal(s.Reference, ades.CertificateReference{Present: true, DigestMatched: true})
		}},
		{"x5t#o of an unknown digest algorithm", base(`,"x5t#o":{"digAlg":"S3-256","digVal":"AAAA"}`), func(is *is.I, s ades.Signature) {
			is.Equal(s.Reference, ades.CertificateReference{Present: true})
		}},
		{"kid alone: no baseline level", base(fmt.Sprintf(`,"kid":%q`, kid)), func(is *is.I, s ades.Signature) {
			is.Equal(s.Reference, ades.CertificateReference{IssuerSerialPresent: true, IssuerSerialMatched: true})
			is.Equal(s.Level, ades.NotBaseline)
			is.Equal(s.FormatName(), "JSON_NOT_ETSI")
		}},
		{"signer by kid among the validator's certificates", fmt.Sprintf(`{"alg":"RS256","kid":%q,"x5t#S256":%q,"sigT":"2026-05-31T12:00:00Z","crit":["sigT"]}`, kid, x5tS256(rsa)), func(is *is.I, s ades.Signature) {
			is.True(s.Value.Valid) // the certificate comes from ports.Document.Certificates
			is.Equal(s.Reference, ades.CertificateReference{Present: true, DigestMatched: true, IssuerSerialPresent: true, IssuerSerialMatched: true})
		}},
		{"srCms, sigPId, sigPl, srAts, cty", base(`,"x5t#S256":"` + x5tS256(rsa) + `","cty":"json","srCms":[{"commId":{"id":"http://uri.etsi.org/01903/v1.2.2#ProofOfOrigin"}},{"commId":"urn:oid:1.2.840.113549.1.9.16.6.2"}],` +
			`"sigPId":{"id":"urn:oid:1.2.3.4","hashAV":"S256"},"sigPl":{"addressCountry":"CH"},"srAts":{"claimed":[]}`), func(is *is.I, s ades.Signature) {
			is.Equal(s.CommitmentTypes, []string{"http://uri.etsi.org/01903/v1.2.2#ProofOfOrigin", "urn:oid:1.2.840.113549.1.9.16.6.2"})
			is.Equal(s.PolicyID, "1.2.3.4")
			is.Equal(len(s.Problems), 0)
		}},
		{"iat instead of sigT", fmt.Sprintf(`{"alg":"RS256","x5c":%s,"x5t#S256":%q,"iat":1780228800}`, x5c(rsa), x5tS256(rsa)), func(is *is.I, s ades.Signature) {
			is.Equal(s.ClaimedSigningTime, time.Unix(1780228800, 0).UTC())
		}},
		{"no sigT", fmt.Sprintf(`{"alg":"RS256","x5c":%s,"x5t#S256":%q}`, x5c(rsa), x5tS256(rsa)), func(is *is.I, s ades.Signature) {
			_, ok := problem(s, jades.CodeNoSigningTime)
			is.True(ok)
			is.True(s.ClaimedSigningTime.IsZero())
		}},
		{"sigT not in crit", fmt.Sprintf(`{"alg":"RS256","x5c":%s,"x5t#S256":%q,"sigT":"2026-05-31T12:00:00Z"}`, x5c(rsa), x5tS256(rsa)), func(is *is.I, s ades.Signature) {
			p, ok := problem(s, jades.CodeMalformedProperty)
			is.True(ok && !p.FormatFailure)
			is.Equal(p.Message, "sigT is not listed in crit (TS 119 182-1 requires it)")
		}},
		{"sigT not UTC", fmt.Sprintf(`{"alg":"RS256","x5c":%s,"x5t#S256":%q,"sigT":"2026-05-31T14:00:00+02:00","crit":["sigT"]}`, x5c(rsa), x5tS256(rsa)), func(is *is.I, s ades.Signature) {
			p, ok := problem(s, jades.CodeMalformedProperty)
			is.True(ok)
			is.Equal(p.Message, `sigT "2026-05-31T14:00:00+02:00" is not a UTC date-time of RFC 3339 (TS 119 182-1 5.2.1)`)
		}},
		{"crit naming an RFC 7515 parameter", fmt.Sprintf(`{"alg":"RS256","x5c":%s,"x5t#S256":%q,"sigT":"2026-05-31T12:00:00Z","crit":["sigT","alg"]}`, x5c(rsa), x5tS256(rsa)), func(is *is.I, s ades.Signature) {
			p, ok := problem(s, jades.CodeHeaderInvalid)
			is.True(ok && p.FormatFailure)
			is.Equal(p.Message, `crit lists "alg", a parameter of RFC 7515 itself`)
		}},
		{"crit naming an absent parameter", fmt.Sprintf(`{"alg":"RS256","x5c":%s,"x5t#S256":%q,"sigT":"2026-05-31T12:00:00Z","crit":["sigT","sigD"]}`, x5c(rsa), x5tS256(rsa)), func(is *is.I, s ades.Signature) {
			p, ok := problem(s, jades.CodeHeaderInvalid)
			is.True(ok && p.FormatFailure)
			is.Equal(p.Message, `crit lists "sigD", which the protected header does not hold`)
		}},
		{"crit empty", fmt.Sprintf(`{"alg":"RS256","x5c":%s,"x5t#S256":%q,"crit":[]}`, x5c(rsa), x5tS256(rsa)), func(is *is.I, s ades.Signature) {
			p, ok := problem(s, jades.CodeHeaderInvalid)
			is.True(ok && p.FormatFailure)
			is.Equal(p.Message, "crit is not a non-empty array of names")
		}},
		{"x5c not an array", fmt.Sprintf(`{"alg":"RS256","x5c":%q,"x5t#S256":%q}`, "MIIB", x5tS256(rsa)), func(is *is.I, s ades.Signature) {
			p, ok := problem(s, jades.CodeHeaderInvalid)
			is.True(ok && p.FormatFailure)
			is.Equal(p.Message, "x5c is a string, not a non-empty array of base64 certificates (RFC 7515 4.1.6)")
		}},
		{"alg none", header(rsa, "none", ""), func(is *is.I, s ades.Signature) {
			p, ok := problem(s, jades.CodeAlgorithmRefused)
			is.True(ok && p.FormatFailure)
			is.Equal(p.Message, `jades: algorithm refused: alg "none" is an unsecured JWS, no signature`)
			is.Equal(s.Value, ades.Check{Reason: jades.CodeAlgorithmRefused})
		}},
		{"alg HS256", header(rsa, "HS256", ""), func(is *is.I, s ades.Signature) {
			p, ok := problem(s, jades.CodeAlgorithmRefused)
			is.True(ok && p.FormatFailure)
			is.Equal(p.Message, `jades: algorithm refused: alg "HS256" is a MAC with a shared key, not a signature`)
		}},
		{"alg EdDSA: registered, not verified here", header(rsa, "EdDSA", ""), func(is *is.I, s ades.Signature) {
			is.Equal(s.Value, ades.Check{Algorithm: "EdDSA", Reason: jades.CodeUnsupportedAlgorithm})
			is.Equal(len(s.Problems), 0)
		}},
		{"alg ES256 over an RSA key", header(rsa, "ES256", ""), func(is *is.I, s ades.Signature) {
			is.Equal(s.Value, ades.Check{Done: true, Algorithm: "ECDSA-SHA256", Reason: jades.CodeKeyMismatch})
		}},
		{"alg RS384 over an RS256 value", header(rsa, "RS384", ""), func(is *is.I, s ades.Signature) {
			is.Equal(s.Value, ades.Check{Done: true, Algorithm: "RSA-SHA384", Reason: jades.CodeSignatureInvalid})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			data := compact(t, rsa, tt.hdr, payload)
			sigs, err := jades.NewReader().Read(context.Background(), ports.Document{Data: []byte(data), Certificates: []*x509.Certificate{rsa.Certificate}})
			is.NoErr(err)
			is.Equal(len(sigs), 1)
			tt.check(is, sigs[0])
		})
	}
}

// TestReadECDSAValueLength: an ES256 value must be r||s of exactly 64
// bytes; the DER form or a padded one does not verify.
func TestReadECDSAValueLength(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := testPKI(t)
	ec := p.SignerECDSA
	payload := b64url.EncodeToString(content)
	good := compact(t, ec, header(ec, "ES256", ""), payload)
	is.True(read(t, []byte(good))[0].Value.Valid)
	parts := strings.Split(good, ".")
	raw, _ := b64url.DecodeString(parts[2])
	padded := append([]byte{0}, raw...)
	bad := parts[0] + "." + parts[1] + "." + b64url.EncodeToString(padded)
	is.Equal(read(t, []byte(bad))[0].Value, ades.Check{Done: true, Algorithm: "ECDSA-SHA256", Reason: jades.CodeSignatureInvalid})
}

// TestReadBadInput: what is not well-formed is refused as unreadable,
// each with its reason; what is not a JWS is not this format.
func TestReadBadInput(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	rsa := p.SignerRSA
	payload := b64url.EncodeToString(content)
	good := compact(t, rsa, header(rsa, "RS256", ""), payload)
	parts := strings.Split(good, ".")
	flattened := func(prot, hdr, sig string) string {
		return fmt.Sprintf(`{"payload":%q,"protected":%q,"header":%s,"signature":%q}`, payload, prot, hdr, sig)
	}
	dupHeader := compact(t, rsa, `{"alg":"RS256","alg":"none"}`, payload)
	tests := []struct {
		name string
		data string
		want string // the error's text after "unreadable document: jades: t.json: "
	}{
		{"protected header not base64url", "eyJhbGciOiJSUzI1NiJ9!." + parts[1] + "." + parts[2], "not a JWS"},
		{"protected header with padding", flattened(parts[0]+"=", "{}", parts[2]), "protected header: invalid base64url (RFC 7515 section 2, no padding): illegal base64 data at input byte " + fmt.Sprint(len(parts[0]))},
		{"signature not base64url", flattened(parts[0], "{}", "a+b/"), "signature: invalid base64url (RFC 7515 section 2, no padding): illegal base64 data at input byte 1"},
		{"payload not base64url", strings.Replace(flattened(parts[0], "{}", parts[2]), payload, "a b", 1), "payload: invalid base64url (RFC 7515 section 2, no padding)"},
		{"duplicate member in the protected header", dupHeader, `protected header: JSON: duplicate member name "alg" at offset 15`},
		{"duplicate member in the serialisation", `{"payload":"cA","protected":"` + parts[0] + `","signature":"` + parts[2] + `","payload":"cQ"}`, `JSON: duplicate member name "payload" at offset ` + fmt.Sprint(len(`{"payload":"cA","protected":"`+parts[0]+`","signature":"`+parts[2]+`",`))},
		{"duplicate member in an etsiU component", flattened(parts[0], `{"etsiU":[`+fmt.Sprintf("%q", b64url.EncodeToString([]byte(`{"sigTst":{},"sigTst":{}}`)))+`]}`, parts[2]), `etsiU[0]: JSON: duplicate member name "sigTst" at offset 13`},
		{"etsiU entry not base64url", flattened(parts[0], `{"etsiU":["e30="]}`, parts[2]), "etsiU[0]: invalid base64url (RFC 7515 section 2, no padding): illegal base64 data at input byte 3"},
		{"etsiU entry of two properties", flattened(parts[0], `{"etsiU":[{"xVals":[],"rVals":{}}]}`, parts[2]), "etsiU[0] is not an object of one property (TS 119 182-1 5.3)"},
		{"etsiU not an array", flattened(parts[0], `{"etsiU":{}}`, parts[2]), "etsiU is an object, not an array"},
		{"no protected header", `{"payload":"cA","signatures":[{"header":{"alg":"RS256"},"signature":"cw"}]}`, "signatures[0] has no protected header (TS 119 182-1 requires one)"},
		{"both serialisations", `{"payload":"cA","protected":"e30","signature":"cw","signatures":[]}`, "both the general (signatures) and the flattened (protected, signature) serialisation"},
		{"trailing data", flattened(parts[0], "{}", parts[2]) + "{}", "JSON: data after the JSON value at offset " + fmt.Sprint(len(flattened(parts[0], "{}", parts[2])))},
		{"invalid UTF-8", `{"protected":"` + parts[0] + "\",\"signature\":\"" + parts[2] + "\",\"x\":\"\xff\"}", "JSON: invalid UTF-8 in a string at offset " + fmt.Sprint(len(`{"protected":"`+parts[0]+`","signature":"`+parts[2]+`","x":"`)+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := jades.NewReader().Read(context.Background(), ports.Document{Name: "t.json", Data: []byte(tt.data)})
			if tt.want == "not a JWS" {
				is.True(errors.Is(err, ports.ErrNotThisFormat))
				return
			}
			is.True(errors.Is(err, ports.ErrUnreadable))
			is.Equal(err.Error(), "unreadable document: jades: t.json: "+tt.want)
		})
	}
}

// TestReadBombs: a deep nesting and a huge string are refused fast,
// where the limit is crossed.
func TestReadBombs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"100,000-deep nesting", append([]byte(`{"protected":`), bytes.Repeat([]byte("["), 100000)...), "JSON: nesting deeper than 32 at offset 44"},
		{"40 MB string", append(append([]byte(`{"protected":"e30","signature":"cw","payload":"`), bytes.Repeat([]byte("A"), 40<<20)...), '"', '}'), fmt.Sprintf("JSON: string over %d bytes at offset %d", jades.MaxStringBytes, 47+jades.MaxStringBytes)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			start := time.Now()
			_, err := jades.NewReader().Read(context.Background(), ports.Document{Name: "t.json", Data: tt.data})
			took := time.Since(start)
			is.True(errors.Is(err, ports.ErrUnreadable))
			is.Equal(err.Error(), "unreadable document: jades: t.json: "+tt.want)
			is.True(took < time.Second) // refused within a second
		})
	}
}

// TestDetect: what Detect claims, and that Read refuses exactly the rest
// as not its format.
func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		data string
		want bool
	}{
		{"eyJhbGciOiJSUzI1NiJ9.cA.cw", true},
		{"eyJhbGciOiJSUzI1NiJ9..cw\n", true},
		{"eyJhbGciOiJSUzI1NiJ9.a.b.c", false},
		{"eyJ0eXAiOiJKV1QifQ.cA.cw", false}, // a JOSE header without alg
		{"\xef\xbb\xbf {\"protected\":1}", true},
		{`{"signatures":[]}`, true},
		{`{"title":"Hello"}`, false},
		{`<a/>`, false},
		{"%PDF-1.7", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.data, func(t *testing.T) {
			is := is.New(t)
			is.Equal(jades.Detect([]byte(tt.data)), tt.want)
			if !tt.want {
				_, err := jades.NewReader().Read(context.Background(), ports.Document{Data: []byte(tt.data)})
				is.True(errors.Is(err, ports.ErrNotThisFormat))
			}
		})
	}
}
