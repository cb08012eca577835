package xades

import (
	"bytes"
	"crypto"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/asn1"
	"testing"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// digestInfo encodes a DigestInfo of digest under the algorithm oid,
// with NULL parameters when null.
func digestInfo(t *testing.T, oid asn1.ObjectIdentifier, null bool, digest []byte) []byte {
	t.Helper()
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1ObjectIdentifier(oid)
			if null {
				b.AddASN1NULL()
			}
		})
		b.AddASN1OctetString(digest)
	})
	der, err := b.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// TestCheckNonce: the nonce of a BDOC 2.1 time-mark is the DigestInfo of
// the signature value's hash, by the algorithm it names.
func TestCheckNonce(t *testing.T) {
	t.Parallel()
	value := []byte("the octets of a ds:SignatureValue")
	sum256 := sha256.Sum256(value)
	sum512 := sha512.Sum512(value)
	other := sha256.Sum256([]byte("another signature value"))
	var (
		oidSHA256 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
		oidSHA512 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}
		oidMD2    = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 2}
	)
	for _, tc := range []struct {
		name  string
		nonce []byte
		want  ades.Check
	}{
		{"SHA-256, NULL parameters", digestInfo(t, oidSHA256, true, sum256[:]), ades.Check{Done: true, Valid: true, Algorithm: cert.HashName(crypto.SHA256)}},
		{"SHA-256, no parameters", digestInfo(t, oidSHA256, false, sum256[:]), ades.Check{Done: true, Valid: true, Algorithm: cert.HashName(crypto.SHA256)}},
		{"SHA-512", digestInfo(t, oidSHA512, true, sum512[:]), ades.Check{Done: true, Valid: true, Algorithm: cert.HashName(crypto.SHA512)}},
		{"the digest of another value", digestInfo(t, oidSHA256, true, other[:]), ades.Check{Done: true, Algorithm: cert.HashName(crypto.SHA256), Reason: CodeTimeMarkNonceMismatch}},
		{"the digest under another algorithm", digestInfo(t, oidSHA512, true, sum256[:]), ades.Check{Done: true, Algorithm: cert.HashName(crypto.SHA512), Reason: CodeTimeMarkNonceMismatch}},
		{"a bare digest", sum256[:], ades.Check{Done: true, Reason: CodeTimeMarkNonceMalformed}},
		{"trailing bytes", append(digestInfo(t, oidSHA256, true, sum256[:]), 0), ades.Check{Done: true, Reason: CodeTimeMarkNonceMalformed}},
		{"an unknown algorithm", digestInfo(t, oidMD2, true, sum256[:16]), ades.Check{Reason: CodeUnsupportedAlgorithm}},
	} {
		if got := checkNonce(tc.nonce, value); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// nonceRequest is an OCSPRequest about cert, issued by issuer, whose
// nonce extension's value is ext as it is (nil: no nonce).
func nonceRequest(t *testing.T, cert, issuer *x509.Certificate, ext []byte) []byte {
	t.Helper()
	spki := cryptobyte.String(issuer.RawSubjectPublicKeyInfo)
	var info cryptobyte.String
	var key asn1.BitString
	if !spki.ReadASN1(&info, cbasn1.SEQUENCE) || !info.SkipASN1(cbasn1.SEQUENCE) || !info.ReadASN1BitString(&key) {
		t.Fatal("issuer public key unreadable")
	}
	nameHash, keyHash := sha1.Sum(cert.RawIssuer), sha1.Sum(key.Bytes)
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
							b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26})
							b.AddASN1NULL()
						})
						b.AddASN1OctetString(nameHash[:])
						b.AddASN1OctetString(keyHash[:])
						b.AddASN1BigInt(cert.SerialNumber)
					})
				})
			})
			if ext != nil {
				b.AddASN1(cbasn1.Tag(2).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
							b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 48, 1, 2})
							b.AddASN1OctetString(ext)
						})
					})
				})
			}
		})
	})
	der, err := b.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// TestTimeMarkRecognised: which OCSP responses of a signature without a
// signature time-stamp make a time-mark (docs/decisions/0031): one about
// the signer whose nonce is a DigestInfo, in an OCTET STRING (RFC 8954,
// as OpenSSL writes it) or bare; under the BDOC policy any nonce, checked;
// never a random nonce outside it, a response without a nonce, or one
// about another certificate.
func TestTimeMarkRecognised(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9") // in process: never asked
	if err != nil {
		t.Fatal(err)
	}
	signer, other := p.SignerRSA, p.SignerECDSA
	value := []byte("the octets of a ds:SignatureValue")
	sum := sha256.Sum256(value)
	oidSHA256 := asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	info := digestInfo(t, oidSHA256, true, sum[:])
	wrapped, err := asn1.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	random := bytes.Repeat([]byte{0x5a}, 32)
	wrappedRandom, err := asn1.Marshal(random)
	if err != nil {
		t.Fatal(err)
	}
	producedAt := time.Date(2026, time.March, 1, 12, 2, 0, 0, time.UTC)
	respond := func(about *pki.Identity, ext []byte) []byte {
		resp, err := p.OCSPResponse(nonceRequest(t, about.Certificate, about.Issuer.Certificate, ext), producedAt)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	ok := ades.Check{Done: true, Valid: true, Algorithm: cert.HashName(crypto.SHA256)}
	for _, tc := range []struct {
		name      string
		responses [][]byte
		policy    string
		want      *ades.Check // the nonce's check; nil: no time-mark
	}{
		{"a DigestInfo in an OCTET STRING", [][]byte{respond(signer, wrapped)}, "", &ok},
		{"a bare DigestInfo", [][]byte{respond(signer, info)}, "", &ok},
		{"under the BDOC policy", [][]byte{respond(signer, wrapped)}, PolicyBDOCTimeMark, &ok},
		{"a random nonce", [][]byte{respond(signer, wrappedRandom)}, "", nil},
		{"a random nonce under the BDOC policy", [][]byte{respond(signer, wrappedRandom)}, PolicyBDOCTimeMark,
			&ades.Check{Done: true, Reason: CodeTimeMarkNonceMalformed}},
		{"no nonce", [][]byte{respond(signer, nil)}, PolicyBDOCTimeMark, nil},
		{"about another certificate", [][]byte{respond(other, wrapped)}, PolicyBDOCTimeMark, nil},
		{"the signer's after another's", [][]byte{respond(other, wrapped), respond(signer, wrapped)}, "", &ok},
		{"not an OCSP response", [][]byte{[]byte("junk")}, PolicyBDOCTimeMark, nil},
	} {
		tm := timeMark(tc.responses, signer.Certificate, value, tc.policy)
		switch {
		case (tm != nil) != (tc.want != nil):
			t.Errorf("%s: time-mark %+v, want one: %v", tc.name, tm, tc.want != nil)
		case tm != nil && (tm.Nonce != *tc.want || !tm.ProducedAt.Equal(producedAt)):
			t.Errorf("%s: nonce %+v at %v, want %+v at %v", tc.name, tm.Nonce, tm.ProducedAt, *tc.want, producedAt)
		}
	}
}
