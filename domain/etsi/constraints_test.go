package etsi_test

import (
	"crypto/rand"
	"crypto/x509"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestCryptographicConstraints judges the algorithms of the signature,
// its certificate path and its time-stamps against the catalogue, with
// and without a proof of existence before an algorithm's date. Before
// issue 16 every row passed.
func TestCryptographicConstraints(t *testing.T) {
	t.Parallel()
	// A catalogue where SHA-1 is acceptable until 2026-01-01, so that a
	// fixture time-stamp of 2025 is a proof of existence before it.
	sha1Until := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	moved := algorithm.Default().WithDigest("SHA-1", algorithm.Limit{Until: sha1Until, Source: "test"})
	poe := time.Date(2025, time.June, 1, 0, 0, 0, 0, time.UTC)
	sha1 := func(sig *ades.Signature) {
		sig.DataObjects[0].DigestAlgorithm = "SHA-1"
		sig.Value.Algorithm = "RSA-SHA1"
	}
	withTimestamp := func(sig *ades.Signature, p *pki.PKI) {
		sig.Level = ades.LevelT
		sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, poe, p.TSA.Certificate)}
	}
	tests := []struct {
		name      string
		build     func(t *testing.T, p *pki.PKI) ades.Signature
		catalogue *algorithm.Catalogue
		ind       verdict.Indication
		sub       verdict.SubIndication
		warnings  []string
		// factsSigned, when set, is the algorithm of every revocation
		// datum's signature.
		factsSigned x509.SignatureAlgorithm
	}{
		{"SHA-256 signature", func(t *testing.T, p *pki.PKI) ades.Signature { return signature(p.SignerRSA) }, nil, verdict.TotalPassed, "", nil, 0},
		{"SHA-1 signature, no proof of existence", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.SignerRSA)
			sha1(&sig)
			return sig
		}, nil, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, nil, 0},
		{"SHA-1 signature, a time-stamp after the date", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.SignerRSA)
			sha1(&sig)
			withTimestamp(&sig, p)
			return sig
		}, nil, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, nil, 0},
		{"SHA-1 signature, a time-stamp before the date", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.SignerRSA)
			sig.ClaimedSigningTime = poe.Add(-time.Hour)
			sha1(&sig)
			withTimestamp(&sig, p)
			return sig
		}, &moved, verdict.TotalPassed, "", nil, 0},
		{"SHA-1 signature, no time-stamp, the date moved", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.SignerRSA)
			sha1(&sig)
			return sig
		}, &moved, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, nil, 0},
		{"SHA-1 as the digest of the signed data only", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.SignerRSA)
			sig.DataObjects[0].DigestAlgorithm = "SHA-1"
			return sig
		}, nil, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, nil, 0},
		{"SHA-1 in the signature value's algorithm only (the signed attributes' digest)", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.SignerRSA)
			sig.Value.Algorithm = "RSA-SHA1"
			return sig
		}, nil, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, nil, 0},
		{"MD5 digest of the signed data", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.SignerRSA)
			sig.DataObjects[0].DigestAlgorithm = "MD5"
			return sig
		}, nil, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, nil, 0},
		{"a 1024-bit RSA signer", func(t *testing.T, p *pki.PKI) ades.Signature { return signature(p.SignerRSA1024) }, nil,
			verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, nil, 0},
		{"an unknown digest", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.SignerRSA)
			sig.DataObjects[0].DigestAlgorithm = "WHIRLPOOL"
			return sig
		}, nil, verdict.Indeterminate, verdict.SubCryptoConstraintsFailure, nil, 0},
		{"Ed448 with SHA-256, which RFC 8419 forbids", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.SignerRSA)
			sig.Value = ades.Check{Algorithm: "Ed448", Reason: "CADES_UNSUPPORTED_ALGORITHM"}
			return sig
		}, nil, verdict.Indeterminate, verdict.SubCryptoConstraintsFailure, nil, 0},
		{"a signing certificate signed with SHA-1", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.SignerRSA)
			sig.SigningCertificate = reissued(t, p, x509.SHA1WithRSA)
			return sig
		}, nil, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, nil, 0},
		{"a SHA-1 time-stamp gives no proof of existence", func(t *testing.T, p *pki.PKI) ades.Signature {
			sig := signature(p.Revoked)
			sig.ClaimedSigningTime = poe.Add(-time.Hour)
			withTimestamp(&sig, p)
			sig.Timestamps[0].Imprint.Algorithm = "SHA1"
			return sig
		}, nil, verdict.Indeterminate, verdict.SubRevokedNoPOE, []string{etsi.CodeTimestampInvalid}, 0},
		{"revocation data signed with SHA-256", func(t *testing.T, p *pki.PKI) ades.Signature { return signature(p.SignerRSA) }, nil,
			verdict.TotalPassed, "", nil, x509.SHA256WithRSA},
		{"revocation data signed with SHA-1 is not relied on", func(t *testing.T, p *pki.PKI) ades.Signature { return signature(p.SignerRSA) }, nil,
			verdict.Indeterminate, verdict.SubTryLater, nil, x509.SHA1WithRSA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			p := newPKI(t)
			sig := tt.build(t, p)
			in := inputs(p)
			in.Revocation = goodFacts(sig, in, false)
			if sig.SigningCertificate.Equal(p.Revoked.Certificate) {
				in.Revocation = revokedFacts(sig, in, p.Revoked.Certificate, pki.RevocationTime)
			}
			for _, facts := range in.Revocation {
				for i := range facts {
					facts[i].SignatureAlgorithm = tt.factsSigned
				}
			}
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt, Algorithms: tt.catalogue})
			t.Logf("result: %s %s errors %v warnings %v", r.Indication, r.SubIndication, r.Errors, r.Warnings)
			is.Equal(r.Indication, tt.ind)
			is.Equal(r.SubIndication, tt.sub)
			for _, w := range tt.warnings {
				if !slices.Contains(codes(r.Warnings), w) {
					t.Errorf("warning %s missing from %v", w, codes(r.Warnings))
				}
			}
		})
	}
}

// reissued is the fixture RSA signer's certificate issued again by the
// intermediate CA, signed with alg.
func reissued(t *testing.T, p *pki.PKI, alg x509.SignatureAlgorithm) *x509.Certificate {
	t.Helper()
	tmpl := *p.SignerRSA.Certificate
	tmpl.SignatureAlgorithm = alg
	tmpl.SerialNumber = big.NewInt(0x7001)
	der, err := x509.CreateCertificate(rand.Reader, &tmpl, p.Intermediate.Certificate, p.SignerRSA.Certificate.PublicKey, p.Intermediate.Key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestExpiryWarning: an algorithm of the signature or its path whose
// date falls within the policy's ExpiryWarning after the validation time
// is warned of, with its date and source; one further away, or no
// window, gives no warning; a negative window is an invalid policy.
func TestExpiryWarning(t *testing.T) {
	t.Parallel()
	until := vt.AddDate(1, 0, 0)
	soon := algorithm.Default().WithDigest("SHA-256", algorithm.Limit{Until: until, Source: "a test suite"})
	tests := []struct {
		name    string
		window  time.Duration
		ind     verdict.Indication
		sub     verdict.SubIndication
		warning string // the message, "" for none
	}{
		{"within the window", 2 * 365 * 24 * time.Hour, verdict.TotalPassed, "",
			"the digest of signed data object \"content\" uses SHA-256, acceptable only before " + until.Format("2006-01-02T15:04:05Z") +
				" (a test suite); a proof of existence before that date, such as an archive time-stamp, keeps the signature valid after it"},
		{"beyond the window", 180 * 24 * time.Hour, verdict.TotalPassed, "", ""},
		{"no window", 0, verdict.TotalPassed, "", ""},
		{"a negative window", -time.Hour, verdict.Indeterminate, verdict.SubPolicyProcessingError, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			p := newPKI(t)
			sig := signature(p.SignerRSA)
			in := inputs(p)
			in.Revocation = goodFacts(sig, in, false)
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt, Algorithms: &soon, ExpiryWarning: tt.window})
			is.Equal(r.Indication, tt.ind)
			is.Equal(r.SubIndication, tt.sub)
			var got []verdict.Message
			for _, w := range r.Warnings {
				if w.Code == etsi.CodeAlgorithmExpiresSoon {
					got = append(got, w)
				}
			}
			if tt.warning == "" {
				is.Equal(len(got), 0)
				return
			}
			is.Equal(len(got), 1)
			is.Equal(got[0].Message, tt.warning)
		})
	}
}
