package signjwt_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/signjwt"
)

// tokenOfSize is a valid RS256 token of the fixture of exactly n bytes,
// padded with a claim the profile ignores. Unpadded base64url skips
// some lengths, so a header parameter the profile ignores shifts the
// header's to reach n.
func tokenOfSize(t testing.TB, n int) string {
	t.Helper()
	for shift := range 3 {
		extra := map[jose.HeaderKey]any{"x": strings.Repeat("x", shift)}
		of := func(pad int) string {
			return sign(t, token{alg: jose.RS256, key: keys().rsa, kid: kidRSA, typ: signjwt.Type, extra: extra, claims: claims(set("pad", strings.Repeat("x", pad)))})
		}
		// Each byte of payload adds 4/3 of a byte to the token.
		start := (n-len(of(0)))*3/4 - 8
		for pad := max(start, 0); pad < start+16; pad++ {
			if s := of(pad); len(s) == n {
				return s
			}
		}
	}
	t.Fatalf("no token of %d bytes", n)
	return ""
}

// Verify accepts a token exactly up to each limit it sets and refuses the
// first one past it: the token's size, the jti's length, the range of a
// NumericDate, the characters of the UUID claims. Mutation testing
// (docs/testing.md) found these edges unchecked by TestVerifyRefuses.
func TestVerifyBoundaries(t *testing.T) {
	t.Parallel()
	uuids := func(u string) func(map[string]any) {
		return func(c map[string]any) { c[signjwt.ClaimModule], c["iss"] = u, u }
	}
	tests := []struct {
		name   string
		header func(t testing.TB) string
		why    string // "" when the token is good
	}{
		{"token of exactly 8192 bytes", func(t testing.TB) string { return tokenOfSize(t, signjwt.MaxTokenBytes) }, ""},
		{"token of 8193 bytes", func(t testing.TB) string { return tokenOfSize(t, signjwt.MaxTokenBytes+1) }, "token longer than 8192 bytes"},
		{"jti of 128 characters", func(t testing.TB) string { return rs256(t, set("jti", strings.Repeat("j", signjwt.MaxJTILength))) }, ""},
		{"nbf 0, the epoch", func(t testing.TB) string { return rs256(t, set("nbf", 0)) }, ""},
		{"nbf -1", func(t testing.TB) string { return rs256(t, set("nbf", -1)) }, "claim nbf is not a NumericDate"},
		{"nbf at the largest NumericDate", func(t testing.TB) string { return rs256(t, set("nbf", 1e11)) }, "not valid before 5138-11-16T09:46:40Z"},
		{"nbf past the largest NumericDate", func(t testing.TB) string { return rs256(t, set("nbf", 1e11+1)) }, "claim nbf is not a NumericDate"},
		// The ends of each range of hexadecimal digits in the module
		// claim (iss follows it), and the character just outside each.
		{"UUID of 0 and 9", func(t testing.TB) string { return rs256(t, uuids("09090909-0909-0909-0909-090909090909")) }, "registered for another module"},
		{"UUID of a and f", func(t testing.TB) string { return rs256(t, uuids("afafafaf-afaf-afaf-afaf-afafafafafaf")) }, "registered for another module"},
		{"UUID of A and F", func(t testing.TB) string { return rs256(t, uuids("AFAFAFAF-AFAF-AFAF-AFAF-AFAFAFAFAFAF")) }, "registered for another module"},
		{"UUID with / (before 0)", func(t testing.TB) string { return rs256(t, uuids("/aaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa")) }, "moduleUuid is not a UUID"},
		{"UUID with : (after 9)", func(t testing.TB) string { return rs256(t, uuids(":aaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa")) }, "moduleUuid is not a UUID"},
		{"UUID with ` (before a)", func(t testing.TB) string { return rs256(t, uuids("`aaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa")) }, "moduleUuid is not a UUID"},
		{"UUID with g (after f)", func(t testing.TB) string { return rs256(t, uuids("gaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa")) }, "moduleUuid is not a UUID"},
		{"UUID with @ (before A)", func(t testing.TB) string { return rs256(t, uuids("@aaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa")) }, "moduleUuid is not a UUID"},
		{"UUID with G (after F)", func(t testing.TB) string { return rs256(t, uuids("Gaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa")) }, "moduleUuid is not a UUID"},
		{"UUID with a digit for the last dash", func(t testing.TB) string { return rs256(t, uuids("aaaaaaaa-aaaa-4aaa-8aaaaaaaaaaaaaaaaa")) }, "moduleUuid is not a UUID"},
		{"UUID of 35 characters", func(t testing.TB) string { return rs256(t, uuids("aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa")) }, "moduleUuid is not a UUID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			id, err := newVerifier(t, nil).Verify(context.Background(), tt.header(t), body)
			if tt.why == "" {
				is.NoErr(err)
				is.Equal(id.Module, moduleA)
				return
			}
			var refusal *signjwt.RefusalError
			is.True(errors.As(err, &refusal))              // refused, not unavailable
			is.True(strings.Contains(err.Error(), tt.why)) // the reason
		})
	}
}

// The time bounds of checkClaims, each at its edge: the skew on exp, nbf
// and iat is inclusive, and so is the lifetime.
func TestVerifyTimeEdges(t *testing.T) {
	t.Parallel()
	at := func(d time.Duration) int64 { return t0.Add(d).Unix() }
	tests := []struct {
		name string
		mod  func(map[string]any)
		why  string
	}{
		{"exp exactly a skew ago", func(c map[string]any) { c["iat"], c["exp"] = at(-2*time.Minute), at(-signjwt.Skew) }, ""},
		{"exp a second more ago", func(c map[string]any) { c["iat"], c["exp"] = at(-2*time.Minute), at(-signjwt.Skew-time.Second) }, "expired at"},
		{"nbf exactly a skew ahead", set("nbf", at(signjwt.Skew)), ""},
		{"nbf a second further", set("nbf", at(signjwt.Skew+time.Second)), "not valid before"},
		{"iat exactly a skew ahead", func(c map[string]any) { c["iat"], c["exp"] = at(signjwt.Skew), at(2*time.Minute) }, ""},
		{"iat a second further", func(c map[string]any) { c["iat"], c["exp"] = at(signjwt.Skew+time.Second), at(2*time.Minute) }, "issued in the future"},
		{"exp equal to iat", func(c map[string]any) { c["iat"], c["exp"] = at(0), at(0) }, ""},
		{"lifetime a second over", func(c map[string]any) {
			c["iat"], c["exp"] = at(-time.Minute), at(-time.Minute+signjwt.MaxLifetime+time.Second)
		}, "lifetime 5m1s is longer than 5m0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			_, err := newVerifier(t, nil).Verify(context.Background(), rs256(t, tt.mod), body)
			if tt.why == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, signjwt.ErrUnauthenticated))
			is.True(strings.Contains(err.Error(), tt.why)) // the reason
		})
	}
}
