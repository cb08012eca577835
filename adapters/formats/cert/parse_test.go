package cert

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/brainpool"
	"github.com/matryer/is"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// TestParseStdlib checks that certificates crypto/x509 reads come back as
// it reads them.
func TestParseStdlib(t *testing.T) {
	for _, id := range testPKI(t).Identities() {
		t.Run(id.Name, func(t *testing.T) {
			is := is.New(t)
			c, rep, err := ParseDetailed(id.DER)
			is.NoErr(err)
			is.Equal(rep.Method, Stdlib)
			is.Equal(len(rep.Deviations), 0)
			is.True(c.Equal(id.Certificate))
		})
	}
}

// TestParseDeviations checks each deviation real certificates have: the
// certificate parses, says how, keeps its original bytes, and its
// signature still verifies with the issuer's key.
func TestParseDeviations(t *testing.T) {
	p := testPKI(t)
	base := p.SignerRSAQC.DER
	issuer := p.Intermediate
	bpKey, err := ecdsa.GenerateKey(brainpool.P384r1(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rsaKey := p.SignerRSA.Key.Public().(*rsa.PublicKey)
	policy := func(oid asn1.ObjectIdentifier) []byte {
		return build(t, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { b.AddASN1ObjectIdentifier(oid) })
		})
	}
	p1, p2 := asn1.ObjectIdentifier{0, 4, 0, 194112, 1, 2}, asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 99, 1}
	dupPolicies := extensionDER(t, oidExtPolicies, false, build(t, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddBytes(policy(p1))
			b.AddBytes(policy(p2))
			b.AddBytes(policy(p1))
		})
	}))
	badSAN := extensionDER(t, oidExtSubjectAltName, false, build(t, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.Tag(1).ContextSpecific(), func(b *cryptobyte.Builder) { b.AddBytes([]byte("jöhn@example.eu")) })
		})
	}))
	replaceExt := func(parts *tbsParts, oid asn1.ObjectIdentifier, ext []byte) {
		parts.extensions = slices.DeleteFunc(parts.extensions, func(e []byte) bool {
			return bytes.Contains(e, build(t, func(b *cryptobyte.Builder) { b.AddASN1ObjectIdentifier(oid) }))
		})
		parts.extensions = append(parts.extensions, ext)
	}

	tests := []struct {
		name   string
		edit   func(*tbsParts)
		method Method
		check  func(is *is.I, c *x509.Certificate)
	}{
		{
			name:   "negative serial",
			edit:   func(parts *tbsParts) { parts.serial = []byte{0x02, 0x02, 0xfe, 0xcc} },
			method: Repaired,
			check: func(is *is.I, c *x509.Certificate) {
				is.Equal(c.SerialNumber.Int64(), int64(-308))
			},
		},
		{
			name:   "serial not minimal",
			edit:   func(parts *tbsParts) { parts.serial = []byte{0x02, 0x03, 0x00, 0x00, 0x2a} },
			method: Repaired,
			check: func(is *is.I, c *x509.Certificate) {
				is.Equal(c.SerialNumber.Int64(), int64(42))
			},
		},
		{
			name: "basic constraints crypto/x509 refuses",
			edit: func(parts *tbsParts) {
				// cA FALSE written out, a BOOLEAN of 0x01 for TRUE
				// elsewhere: BER that DER forbids.
				replaceExt(parts, oidExtBasicConstraints, extensionDER(t, oidExtBasicConstraints, true,
					[]byte{0x30, 0x06, 0x01, 0x01, 0x01, 0x02, 0x01, 0x00}))
			},
			method: Repaired,
			check: func(is *is.I, c *x509.Certificate) {
				is.True(c.BasicConstraintsValid && c.IsCA && c.MaxPathLenZero)
				is.Equal(len(c.UnhandledCriticalExtensions), 0)
			},
		},
		{
			name:   "brainpool key",
			edit:   func(parts *tbsParts) { parts.spki = brainpoolSPKI(t, &bpKey.PublicKey) },
			method: Repaired,
			check: func(is *is.I, c *x509.Certificate) {
				is.Equal(c.PublicKeyAlgorithm, x509.ECDSA)
				pub := c.PublicKey.(*ecdsa.PublicKey)
				is.Equal(pub.Curve, brainpool.P384r1())
				//lint:ignore SA1019 a point of a custom curve (brainpool) has no other form in crypto/ecdsa.
				is.True(pub.X.Cmp(bpKey.X) == 0 && pub.Y.Cmp(bpKey.Y) == 0)
			},
		},
		{
			name:   "RSASSA-PSS key",
			edit:   func(parts *tbsParts) { parts.spki = pssSPKI(t, rsaKey) },
			method: Stdlib, // crypto/x509 reads it, without the key
			check: func(is *is.I, c *x509.Certificate) {
				is.Equal(c.PublicKeyAlgorithm, x509.RSA)
				is.True(rsaKey.Equal(c.PublicKey))
			},
		},
		{
			name: "RSA key without NULL parameters",
			edit: func(parts *tbsParts) {
				parts.spki = rsaSPKI(t, rsaKey, false, false)
			},
			method: Repaired,
			check: func(is *is.I, c *x509.Certificate) {
				is.True(rsaKey.Equal(c.PublicKey))
			},
		},
		{
			name: "RSA modulus without its leading zero",
			edit: func(parts *tbsParts) {
				parts.spki = rsaSPKI(t, rsaKey, true, true)
			},
			method: Repaired,
			check: func(is *is.I, c *x509.Certificate) {
				is.True(rsaKey.Equal(c.PublicKey))
			},
		},
		{
			name:   "duplicate policies",
			edit:   func(parts *tbsParts) { replaceExt(parts, oidExtPolicies, dupPolicies) },
			method: Repaired,
			check: func(is *is.I, c *x509.Certificate) {
				is.Equal(len(c.Policies), 2)
				is.True(c.Policies[0].EqualASN1OID(p1) && c.Policies[1].EqualASN1OID(p2))
				ext := c.Extensions[len(c.Extensions)-1]
				is.True(ext.Id.Equal(oidExtPolicies))
				is.True(bytes.Contains(dupPolicies, ext.Value)) // the original value, duplicates included
			},
		},
		{
			name:   "SAN crypto/x509 refuses",
			edit:   func(parts *tbsParts) { replaceExt(parts, oidExtSubjectAltName, badSAN) },
			method: Repaired,
			check: func(is *is.I, c *x509.Certificate) {
				is.Equal(c.EmailAddresses, []string{"jöhn@example.eu"})
				is.Equal(len(c.Policies), 1) // the other extensions are crypto/x509's
			},
		},
		{
			name: "everything at once",
			edit: func(parts *tbsParts) {
				parts.serial = []byte{0x02, 0x01, 0x80}
				parts.spki = brainpoolSPKI(t, &bpKey.PublicKey)
				replaceExt(parts, oidExtPolicies, dupPolicies)
			},
			method: Repaired,
			check: func(is *is.I, c *x509.Certificate) {
				is.Equal(c.SerialNumber.Int64(), int64(-128))
				is.Equal(len(c.Policies), 2)
				is.Equal(c.PublicKey.(*ecdsa.PublicKey).Curve, brainpool.P384r1())
			},
		},
		{
			name: "name attribute that is no string",
			edit: func(parts *tbsParts) {
				parts.serial = []byte{0x02, 0x01, 0xff}
				parts.subject = build(t, func(b *cryptobyte.Builder) {
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
						b.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) {
							b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
								b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{2, 5, 4, 3})
								b.AddASN1(cbasn1.UTF8String, func(b *cryptobyte.Builder) { b.AddBytes([]byte("Jöhn")) })
							})
						})
						b.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) {
							b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
								b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{2, 5, 4, 5})
								b.AddASN1Int64(7)
							})
						})
					})
				})
			},
			method: Lenient,
			check: func(is *is.I, c *x509.Certificate) {
				is.Equal(c.Subject.CommonName, "Jöhn")
				is.Equal(c.SerialNumber.Int64(), int64(-1))
				is.Equal(len(c.Subject.Names), 2)
				is.Equal(c.Subject.Names[1].Value, asn1.RawValue{FullBytes: []byte{0x02, 0x01, 0x07}})
				is.True(c.Issuer.CommonName != "")
				is.True(len(c.Policies) == 1 && len(c.CRLDistributionPoints) == 1 && len(c.OCSPServer) == 1)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			der := forge(t, base, tt.edit, issuer.Key)
			c, rep, err := ParseDetailed(der)
			is.NoErr(err)
			is.Equal(rep.Method, tt.method)
			t.Logf("%v: %v (crypto/x509: %v)", rep.Method, rep.Deviations, rep.StdlibErr)
			if tt.method != Stdlib {
				is.True(rep.StdlibErr != nil)
				is.True(len(rep.Deviations) > 0)
			}
			is.Equal(c.Raw, der)
			rc, err := parseRawCertificate(der)
			is.NoErr(err)
			is.Equal(c.RawTBSCertificate, rc.tbs.raw)
			is.Equal(c.RawSubjectPublicKeyInfo, rc.tbs.spki)
			is.NoErr(CheckCertificateSignature(c, issuer.Certificate.PublicKey))
			is.NoErr(c.CheckSignatureFrom(issuer.Certificate)) // crypto/x509 agrees
			tt.check(is, c)
		})
	}
}

// TestParseNegativeSerialGODEBUG checks that with x509negativeserial=1 in
// effect crypto/x509 reads negative serial numbers itself, and that the
// result is the same as the repair path's.
func TestParseNegativeSerialGODEBUG(t *testing.T) {
	is := is.New(t)
	p := testPKI(t)
	der := forge(t, p.SignerRSA.DER, func(parts *tbsParts) { parts.serial = []byte{0x02, 0x01, 0x9c} }, p.Intermediate.Key)
	repaired, rep, err := ParseDetailed(der)
	is.NoErr(err)
	is.Equal(rep.Method, Repaired)

	// The runtime re-reads GODEBUG when the environment variable changes.
	t.Setenv("GODEBUG", "x509negativeserial=1")
	direct, rep, err := ParseDetailed(der)
	is.NoErr(err)
	is.Equal(rep.Method, Stdlib)
	is.Equal(rep.Deviations, []string{"negative serial number"})
	is.Equal(direct.SerialNumber, repaired.SerialNumber)
	is.Equal(direct.Subject.String(), repaired.Subject.String())
	is.Equal(direct.Extensions, repaired.Extensions)
	is.Equal(direct.Policies, repaired.Policies)
	is.Equal(direct.KeyUsage, repaired.KeyUsage)
	is.True(direct.Equal(repaired))
}

// TestLenientMatchesStdlib reads every fixture certificate with the
// lenient reader and compares the fields it fills with crypto/x509's.
func TestLenientMatchesStdlib(t *testing.T) {
	for _, id := range testPKI(t).Identities() {
		t.Run(id.Name, func(t *testing.T) {
			is := is.New(t)
			want := id.Certificate
			rc, err := parseRawCertificate(id.DER)
			is.NoErr(err)
			rep := &Report{}
			got := lenient(rc, rep)
			is.Equal(len(rep.Deviations), 0)
			is.Equal(got.Raw, want.Raw)
			is.Equal(got.RawTBSCertificate, want.RawTBSCertificate)
			is.Equal(got.RawSubjectPublicKeyInfo, want.RawSubjectPublicKeyInfo)
			is.Equal(got.RawSubject, want.RawSubject)
			is.Equal(got.RawIssuer, want.RawIssuer)
			is.Equal(got.Signature, want.Signature)
			is.Equal(got.SignatureAlgorithm, want.SignatureAlgorithm)
			is.Equal(got.PublicKeyAlgorithm, want.PublicKeyAlgorithm)
			is.True(want.PublicKey.(interface{ Equal(crypto.PublicKey) bool }).Equal(got.PublicKey))
			is.Equal(got.Version, want.Version)
			is.Equal(got.SerialNumber, want.SerialNumber)
			is.Equal(got.Issuer.String(), want.Issuer.String())
			is.Equal(got.Subject.String(), want.Subject.String())
			is.True(got.NotBefore.Equal(want.NotBefore) && got.NotAfter.Equal(want.NotAfter))
			is.Equal(got.Extensions, want.Extensions)
			is.Equal(got.UnhandledCriticalExtensions, want.UnhandledCriticalExtensions)
			is.Equal(got.KeyUsage, want.KeyUsage)
			is.Equal(got.ExtKeyUsage, want.ExtKeyUsage)
			is.Equal(got.UnknownExtKeyUsage, want.UnknownExtKeyUsage)
			is.Equal(got.BasicConstraintsValid, want.BasicConstraintsValid)
			is.Equal(got.IsCA, want.IsCA)
			is.Equal(got.MaxPathLen, want.MaxPathLen)
			is.Equal(got.MaxPathLenZero, want.MaxPathLenZero)
			is.Equal(got.SubjectKeyId, want.SubjectKeyId)
			is.Equal(got.AuthorityKeyId, want.AuthorityKeyId)
			is.Equal(got.OCSPServer, want.OCSPServer)
			is.Equal(got.IssuingCertificateURL, want.IssuingCertificateURL)
			is.Equal(got.CRLDistributionPoints, want.CRLDistributionPoints)
			is.Equal(got.PolicyIdentifiers, want.PolicyIdentifiers)
			is.Equal(got.Policies, want.Policies)
			is.Equal(got.DNSNames, want.DNSNames)
			is.Equal(got.EmailAddresses, want.EmailAddresses)
		})
	}
}

// TestParseAll checks concatenated DER and PEM bundles.
func TestParseAll(t *testing.T) {
	p := testPKI(t)
	ids := p.Identities()[:4]
	var der, pemData []byte
	for _, id := range ids {
		der = append(der, id.DER...)
		pemData = append(pemData, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: id.DER})...)
	}
	pemData = append(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1}}), pemData...)
	tests := []struct {
		name    string
		in      []byte
		want    int
		wantErr error
	}{
		{"DER", der, len(ids), nil},
		{"PEM", append([]byte("\n  "), pemData...), len(ids), nil},
		{"DER with garbage", append(bytes.Clone(der), 0x05, 0x00), len(ids), ErrMalformed},
		{"truncated", der[:len(der)-1], len(ids) - 1, ErrMalformed},
		{"PEM without certificate", []byte("-----BEGIN X-----\nAA==\n-----END X-----\n"), 0, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			certs, err := ParseAll(tt.in)
			is.Equal(len(certs), tt.want)
			if tt.wantErr == nil {
				is.NoErr(err)
			} else {
				is.True(errors.Is(err, tt.wantErr))
			}
			for i, c := range certs {
				is.True(c.Equal(ids[i].Certificate))
			}
		})
	}
}

// TestParseMalformed checks inputs that are no certificate at all.
func TestParseMalformed(t *testing.T) {
	p := testPKI(t)
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, ErrMalformed},
		{"not a sequence", []byte{0x04, 0x00}, ErrMalformed},
		{"truncated", p.SignerRSA.DER[:100], ErrMalformed},
		{"trailing data", append(bytes.Clone(p.SignerRSA.DER), 0), ErrMalformed},
		{"too large", make([]byte, MaxCertificateSize+1), ErrLimitExceeded},
		{"too many extensions", forge(t, p.SignerRSA.DER, func(parts *tbsParts) {
			parts.serial = []byte{0x02, 0x01, 0xff} // crypto/x509 has no limit: make it refuse
			for len(parts.extensions) <= MaxExtensions {
				parts.extensions = append(parts.extensions, extensionDER(t, asn1.ObjectIdentifier{2, 999, len(parts.extensions)}, false, nil))
			}
		}, p.Intermediate.Key), ErrLimitExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := Parse(tt.in)
			is.True(errors.Is(err, tt.want))
		})
	}
}

// TestEqualNames checks name comparison across string types.
func TestEqualNames(t *testing.T) {
	name := func(tag cbasn1.Tag, value string, more ...string) []byte {
		return build(t, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				for _, v := range append([]string{value}, more...) {
					b.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) {
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
							b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{2, 5, 4, 3})
							b.AddASN1(tag, func(b *cryptobyte.Builder) { b.AddBytes([]byte(v)) })
						})
					})
				}
			})
		})
	}
	tests := []struct {
		name string
		a, b []byte
		want bool
	}{
		{"identical", name(cbasn1.UTF8String, "Test CA"), name(cbasn1.UTF8String, "Test CA"), true},
		{"string types differ", name(cbasn1.PrintableString, "Test CA"), name(cbasn1.UTF8String, "Test CA"), true},
		{"case and spaces", name(cbasn1.UTF8String, " test  ca"), name(cbasn1.PrintableString, "Test CA "), true},
		{"values differ", name(cbasn1.UTF8String, "Test CA"), name(cbasn1.UTF8String, "Test CA 2"), false},
		{"more RDNs", name(cbasn1.UTF8String, "Test CA"), name(cbasn1.UTF8String, "Test CA", "x"), false},
		{"malformed", []byte{0x30, 0x01}, name(cbasn1.UTF8String, "Test CA"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(EqualNames(tt.a, tt.b), tt.want)
		})
	}
}

// TestParseName checks the string types crypto/x509 does not decode.
func TestParseName(t *testing.T) {
	tests := []struct {
		name  string
		tag   cbasn1.Tag
		value []byte
		want  any
	}{
		{"BMPString", cbasn1.Tag(30), []byte{0x00, 'J', 0x00, 0xf6}, "Jö"},
		{"T61String", cbasn1.T61String, []byte{'J', 0xf6}, "Jö"},
		{"UniversalString", cbasn1.Tag(28), []byte{0, 0, 0, 'J', 0, 0, 0, 0xf6}, "Jö"},
		{"invalid UTF-8", cbasn1.UTF8String, []byte{'J', 0xff}, "J\uFFFD"},
		{"odd BMPString", cbasn1.Tag(30), []byte{0x00}, asn1.RawValue{FullBytes: []byte{0x1e, 0x01, 0x00}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			der := build(t, func(b *cryptobyte.Builder) {
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					b.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) {
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
							b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{2, 5, 4, 10})
							b.AddASN1(tt.tag, func(b *cryptobyte.Builder) { b.AddBytes(tt.value) })
						})
					})
				})
			})
			n, err := ParseName(der)
			is.NoErr(err)
			is.Equal(n.Names[0].Value, tt.want)
		})
	}
}

// TestParseTime checks the time forms real certificates use.
func TestParseTime(t *testing.T) {
	tests := []struct {
		in          string
		generalized bool
		want        string
		wantErr     bool
	}{
		{"491231235959Z", false, "2049-12-31T23:59:59Z", false},
		{"500101000000Z", false, "1950-01-01T00:00:00Z", false},
		{"2001011200Z", false, "2020-01-01T12:00:00Z", false},
		{"200101120000+0100", false, "2020-01-01T11:00:00Z", false},
		{"20500101000000Z", true, "2050-01-01T00:00:00Z", false},
		{"20200101120000.123Z", true, "2020-01-01T12:00:00.123Z", false},
		{"20200101120000", true, "2020-01-01T12:00:00Z", false},
		{"2020-01-01", true, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			is := is.New(t)
			got, err := ParseTime(tt.generalized, tt.in)
			is.Equal(err != nil, tt.wantErr)
			if !tt.wantErr {
				is.Equal(got.Format("2006-01-02T15:04:05.999Z07:00"), tt.want)
			}
		})
	}
}

// TestRepairNotes checks that the repair path notes the deviation and the
// reason crypto/x509 gave.
func TestRepairNotes(t *testing.T) {
	is := is.New(t)
	p := testPKI(t)
	der := forge(t, p.SignerECDSA.DER, func(parts *tbsParts) { parts.serial = []byte{0x02, 0x01, 0xf0} }, p.Intermediate.Key)
	_, rep, err := ParseDetailed(der)
	is.NoErr(err)
	is.True(strings.Contains(rep.StdlibErr.Error(), "negative serial"))
	is.Equal(rep.Deviations, []string{"negative serial number"})
}

// TestPlaceholderSPKI checks that crypto/x509 reads the placeholder key as
// an unknown algorithm, which the repair path relies on.
func TestPlaceholderSPKI(t *testing.T) {
	is := is.New(t)
	want := build(t, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{2, 999, 1})
			})
			b.AddASN1BitString(nil)
		})
	})
	is.Equal(placeholderSPKI, want)
}
