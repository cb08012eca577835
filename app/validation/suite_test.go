package validation_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/cryptosuite"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// suite reads a test suite document of adapters/cryptosuite.
func suite(t testing.TB, name string) algorithm.Catalogue {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "adapters", "cryptosuite", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	c, err := cryptosuite.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCryptographicSuites validates signatures made with SHA-1, with a
// 1024-bit RSA key, and with an algorithm that expired between signing
// and validation (the P-256 curve, which the stricter test suite retires
// on 2026-04-01: signed on 2026-03-01, validated on 2026-06-01) with and
// without a proof of existence before the expiry, under the default
// catalogue, the stricter suite (TS 119 322 XML) and the laxer one (XML
// and JSON). EN 319 102-1 pairs both sub-indications with INDETERMINATE:
// CRYPTO_CONSTRAINTS_FAILURE_NO_POE when the algorithm was acceptable
// before a date no proof of existence precedes, CRYPTO_CONSTRAINTS_FAILURE
// when the suite never accepts it.
func TestCryptographicSuites(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	content := []byte("judged under three suites\n")
	march := time.Date(2026, time.March, 1, 10, 0, 0, 0, time.UTC)
	fixtures := []struct {
		name string
		opts cades.Options
	}{
		{"SHA-1", cades.Options{Level: cades.B, Defect: cades.SHA1Signature, SigningTime: signedYesterday}},
		{"RSA-1024", cades.Options{Level: cades.B, Defect: cades.WeakRSAKey, SigningTime: signedYesterday}},
		{"P-256 expired, time-stamped before", cades.Options{Level: cades.T, Signer: s.pki.SignerECDSA, Algorithm: cades.ECDSA, SigningTime: march}},
		{"P-256 expired, no proof of existence", cades.Options{Level: cades.B, Signer: s.pki.SignerECDSA, Algorithm: cades.ECDSA, SigningTime: march}},
	}
	type want struct {
		indication verdict.Indication
		sub        verdict.SubIndication
	}
	pass := want{verdict.TotalPassed, ""}
	noPOE := want{verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE}
	never := want{verdict.Indeterminate, verdict.SubCryptoConstraintsFailure}
	suites := []struct {
		name string
		v    *validation.Validator
		want []want // by fixture
	}{
		{"default", s.v, []want{noPOE, noPOE, pass, pass}},
		{"strict.xml", s.v.Judging(suite(t, "strict.xml")), []want{never, never, pass, noPOE}},
		{"lax.xml", s.v.Judging(suite(t, "lax.xml")), []want{pass, pass, pass, pass}},
		{"lax.json", s.v.Judging(suite(t, "lax.json")), []want{pass, pass, pass, pass}},
	}
	for i, f := range fixtures {
		sig := s.sign(t, content, f.opts)
		for _, su := range suites {
			t.Run(f.name+"/"+su.name, func(t *testing.T) {
				t.Parallel()
				is := is.New(t)
				sum, err := validate(su.v, document(sig, content, false), s.at)
				is.NoErr(err)
				got := sum.Signatures[0]
				t.Logf("%s %v errors=%v warnings=%v", got.Indication, deref(got.SubIndication), got.Errors, codes(got.Warnings))
				is.Equal(got.Indication, su.want[i].indication)
				is.Equal(deref(got.SubIndication), su.want[i].sub)
			})
		}
	}
}

// TestExpiryWarningOption: with WithExpiryWarning, a signature whose
// algorithm the suite accepts only until a date within the window
// passes with ALGORITHM_EXPIRES_SOON, whose English the catalogue
// renders (validate checks every message against it); without the
// option, or with a window that ends before the date, no warning.
func TestExpiryWarningOption(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	content := []byte("SHA-1, acceptable until 2030 under the laxer suite\n")
	sig := s.sign(t, content, cades.Options{Level: cades.B, Defect: cades.SHA1Signature, SigningTime: signedYesterday})
	lax := suite(t, "lax.xml")
	lists, err := s.eco.ValidatorEnv(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadValidator(nil, append([]string{"SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_TL_CACHE=" + filepath.Join(t.TempDir(), "cache"),
		"SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false"}, lists...), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		window time.Duration
		warned bool
	}{
		{"five years", 5 * 365 * 24 * time.Hour, true},
		{"one year", 365 * 24 * time.Hour, false},
		{"none", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			opts := []validation.Option{validation.WithCryptographicSuite(lax)}
			if tt.window > 0 {
				opts = append(opts, validation.WithExpiryWarning(tt.window))
			}
			v := serviceValidator(t, cfg, slog.New(slog.DiscardHandler), func() time.Time { return s.at }, opts...)
			v.Refresh(context.Background())
			sum, err := validate(v, document(sig, content, false), s.at)
			is.NoErr(err)
			got := sum.Signatures[0]
			is.Equal(got.Indication, verdict.TotalPassed)
			is.Equal(slices.Contains(codes(got.Warnings), "ALGORITHM_EXPIRES_SOON"), tt.warned)
		})
	}
}

// TestSuiteOptionErrors: an empty catalogue and a negative window are
// refused with the option's name.
func TestSuiteOptionErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		opt  validation.Option
		want string
	}{
		{validation.WithCryptographicSuite(algorithm.Catalogue{}), "validation: WithCryptographicSuite: the catalogue lists no algorithm"},
		{validation.WithExpiryWarning(-time.Hour), "validation: WithExpiryWarning: the window is negative (-1h0m0s)"},
	}
	for _, tt := range tests {
		t.Run(tt.opt.String(), func(t *testing.T) {
			is := is.New(t)
			_, err := validation.New(context.Background(), validation.WithTime(pki.ReferenceTime), tt.opt)
			var oe *validation.OptionError
			is.True(errors.As(err, &oe))
			is.Equal(err.Error(), tt.want)
		})
	}
}
