package signing

import (
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// Check accepts a value exactly up to each limit it sets and refuses the
// first one past it: every end of every character range, the longest
// key label, the largest batch. Mutation testing (docs/testing.md) found
// these edges unchecked by TestCheck.
func TestCheckBoundaries(t *testing.T) {
	t.Parallel()
	d := sha256.Sum256([]byte("document"))
	tests := []struct {
		name string
		mod  func(*Request)
		why  string // "" when the request is good
	}{
		// The ends of each range of hexadecimal digits, and the character
		// just outside each.
		{"UUID of 0 and 9", func(r *Request) { r.TenantID = "09090909-0909-0909-0909-090909090909" }, ""},
		{"UUID of a and f", func(r *Request) { r.TenantID = "afafafaf-afaf-afaf-afaf-afafafafafaf" }, ""},
		{"UUID of A and F", func(r *Request) { r.TenantID = "AFAFAFAF-AFAF-AFAF-AFAF-AFAFAFAFAFAF" }, ""},
		{"UUID with / (before 0)", func(r *Request) { r.TenantID = "/1111111-1111-4111-8111-111111111111" }, "tenantId must be a UUID"},
		{"UUID with : (after 9)", func(r *Request) { r.TenantID = ":1111111-1111-4111-8111-111111111111" }, "tenantId must be a UUID"},
		{"UUID with ` (before a)", func(r *Request) { r.TenantID = "`1111111-1111-4111-8111-111111111111" }, "tenantId must be a UUID"},
		{"UUID with g (after f)", func(r *Request) { r.TenantID = "g1111111-1111-4111-8111-111111111111" }, "tenantId must be a UUID"},
		{"UUID with @ (before A)", func(r *Request) { r.TenantID = "@1111111-1111-4111-8111-111111111111" }, "tenantId must be a UUID"},
		{"UUID with G (after F)", func(r *Request) { r.TenantID = "G1111111-1111-4111-8111-111111111111" }, "tenantId must be a UUID"},
		{"UUID with a digit for the last dash", func(r *Request) { r.TenantID = "11111111-1111-4111-811111111111111111" }, "tenantId must be a UUID"},
		{"UUID with a dash for a digit", func(r *Request) { r.TenantID = "11111111-1111-4111-8111-11111111111-" }, "tenantId must be a UUID"},
		// The same for key labels.
		{"label of the range ends", func(r *Request) { r.KeyLabel = "09azAZ._-" }, ""},
		{"label of one character", func(r *Request) { r.KeyLabel = "k" }, ""},
		{"label of 64 characters", func(r *Request) { r.KeyLabel = strings.Repeat("k", 64) }, ""},
		{"label with / (before 0)", func(r *Request) { r.KeyLabel = "a/" }, "keyLabel"},
		{"label with : (after 9)", func(r *Request) { r.KeyLabel = "a:" }, "keyLabel"},
		{"label with ` (before a)", func(r *Request) { r.KeyLabel = "a`" }, "keyLabel"},
		{"label with { (after z)", func(r *Request) { r.KeyLabel = "a{" }, "keyLabel"},
		{"label with @ (before A)", func(r *Request) { r.KeyLabel = "a@" }, "keyLabel"},
		{"label with [ (after Z)", func(r *Request) { r.KeyLabel = "a[" }, "keyLabel"},
		// The largest batch.
		{"16 digests", func(r *Request) {
			r.Digests = nil
			for range MaxDigests {
				r.Digests = append(r.Digests, b64(d[:]))
			}
		}, ""},
		{"the second digest of two wrong", func(r *Request) { r.Digests = []string{b64(d[:]), b64(d[:31])} }, "digests[1] has 31 bytes; a SHA-256 digest has 32"},
		// A value quoted in a reason is clipped after 32 bytes.
		{"hash name of 32 bytes quoted whole", func(r *Request) { r.HashAlgorithm = strings.Repeat("h", 32) }, `hashAlgorithm "` + strings.Repeat("h", 32) + `" is not one of`},
		{"hash name of 33 bytes clipped", func(r *Request) { r.HashAlgorithm = strings.Repeat("h", 33) }, `hashAlgorithm "` + strings.Repeat("h", 32) + `…" is not one of`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			j, err := Check(request(tt.mod))
			if tt.why == "" {
				is.NoErr(err)
				is.Equal(len(j.Digests), len(request(tt.mod).Digests))
				return
			}
			is.True(errors.Is(err, ErrBadRequest))
			is.True(strings.Contains(err.Error(), tt.why)) // the reason
		})
	}
}
