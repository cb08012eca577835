package etsi

import (
	"testing"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/algorithm"
)

// TestStrictestOfNone: no use at all has no strictest, and the check
// says there was nothing to judge rather than describing an empty use
// (a survivor of mutation testing: strictest's ok for an empty list).
func TestStrictestOfNone(t *testing.T) {
	if u, ok := strictest(nil); ok {
		t.Errorf("strictest(nil) = %+v, true; want false", u)
	}
	if got, want := describeUses(nil), "no algorithm to judge"; got != want {
		t.Errorf("describeUses(nil) = %q, want %q", got, want)
	}
}

// TestValueUseDigest: an EdDSA value names no digest of its own (the
// algorithm hashes inside), so its use is judged with the signed data's
// digest; a value whose name carries a digest keeps it.
func TestValueUseDigest(t *testing.T) {
	tests := []struct {
		alg    string
		digest algorithm.Digest
		want   algorithm.Digest
	}{
		{"Ed25519", "SHA-512", "SHA-512"},
		{"Ed448", "SHAKE256", "SHAKE256"},
		{"Ed25519-SHA512", "SHA-256", "SHA-512"}, // a reader that names the digest
	}
	for _, tt := range tests {
		u, ok := valueUse(ades.Check{Done: true, Valid: true, Algorithm: tt.alg}, nil, tt.digest)
		if !ok {
			t.Errorf("valueUse(%s): not a known algorithm", tt.alg)
			continue
		}
		if u.Digest != tt.want {
			t.Errorf("valueUse(%s, data digest %s): digest %s, want %s", tt.alg, tt.digest, u.Digest, tt.want)
		}
	}
}
