package trust_test

import (
	"testing"
	"time"

	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/trust"
)

// TestJudged: only a VALID check is downgraded, and only for a use the
// catalogue does not accept at the time the list is read.
func TestJudged(t *testing.T) {
	t.Parallel()
	rsa2048 := algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA-256"}
	sha1 := algorithm.Use{Digest: "SHA-1"}
	rsa1024 := algorithm.Use{Key: algorithm.RSA, Bits: 1024, Digest: "SHA-256"}
	today := time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)
	before := time.Date(2009, time.June, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		check  trust.Check
		at     time.Time
		want   trust.Authenticity
		reason trust.AuthReason
	}{
		{"SHA-256 and RSA-2048", trust.Check{Authenticity: trust.AuthValid, Uses: []algorithm.Use{rsa2048, {Digest: "SHA-256"}}}, today, trust.AuthValid, 0},
		{"a SHA-1 reference today", trust.Check{Authenticity: trust.AuthValid, SHA1: true, Uses: []algorithm.Use{rsa2048, sha1}}, today, trust.AuthIndeterminate, trust.ReasonAlgorithmNotAcceptable},
		{"a SHA-1 reference in 2009", trust.Check{Authenticity: trust.AuthValid, SHA1: true, Uses: []algorithm.Use{rsa2048, sha1}}, before, trust.AuthValid, 0},
		{"a 1024-bit key today", trust.Check{Authenticity: trust.AuthValid, Uses: []algorithm.Use{rsa1024}}, today, trust.AuthIndeterminate, trust.ReasonAlgorithmNotAcceptable},
		{"INVALID stays INVALID", trust.Check{Authenticity: trust.AuthInvalid, Reason: trust.ReasonAltered, Uses: []algorithm.Use{sha1}}, today, trust.AuthInvalid, trust.ReasonAltered},
		{"NOT_CHECKED stays so", trust.Check{Authenticity: trust.AuthNotChecked}, today, trust.AuthNotChecked, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.check.Judged(algorithm.Default(), tt.at)
			if got.Authenticity != tt.want || got.Reason != tt.reason {
				t.Errorf("Judged = %v %v, want %v %v", got.Authenticity, got.Reason, tt.want, tt.reason)
			}
		})
	}
	if trust.ReasonAlgorithmNotAcceptable.String() != "ALGORITHM_NOT_ACCEPTABLE" || trust.ReasonAlgorithmNotAcceptable.Text() == "" {
		t.Error("the reason has no code or no sentence")
	}
}
