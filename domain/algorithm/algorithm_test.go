package algorithm_test

import (
	"testing"
	"time"

	"github.com/svc-dss/dss/domain/algorithm"
)

func TestJudge(t *testing.T) {
	t.Parallel()
	c := algorithm.Default()
	at := func(y int) time.Time { return time.Date(y, time.June, 1, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		use   algorithm.Use
		never bool
		until time.Time // zero: no end
	}{
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA-256"}},
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 4096, Digest: "SHA-512"}},
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA-1"}, until: time.Date(2010, time.January, 1, 0, 0, 0, 0, time.UTC)},
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 1024, Digest: "SHA-256"}, until: time.Date(2010, time.January, 1, 0, 0, 0, 0, time.UTC)},
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 1536, Digest: "SHA-256"}, until: time.Date(2017, time.January, 1, 0, 0, 0, 0, time.UTC)},
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 1024, Digest: "MD5"}, until: time.Date(2004, time.August, 17, 0, 0, 0, 0, time.UTC)},
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 512, Digest: "SHA-256"}, never: true},
		{use: algorithm.Use{Key: algorithm.EC, Bits: 256, Digest: "SHA-256"}},
		{use: algorithm.Use{Key: algorithm.EC, Bits: 384, Digest: "SHA-384"}},
		{use: algorithm.Use{Key: algorithm.EC, Bits: 224, Digest: "SHA-256"}, until: time.Date(2017, time.January, 1, 0, 0, 0, 0, time.UTC)},
		{use: algorithm.Use{Key: algorithm.Ed25519, Bits: 256}},
		{use: algorithm.Use{Key: algorithm.Ed25519, Bits: 256, Digest: "SHA-512"}},
		{use: algorithm.Use{Key: algorithm.Ed448, Bits: 448, Digest: "SHAKE256"}},
		{use: algorithm.Use{Key: algorithm.Ed448, Bits: 448, Digest: "SHA-256"}, never: true},
		{use: algorithm.Use{Key: algorithm.Ed25519, Bits: 256, Digest: "SHA-256"}, never: true},
		{use: algorithm.Use{Key: "GOST", Bits: 256, Digest: "SHA-256"}, never: true},
		{use: algorithm.Use{Digest: "SHA-256"}},
		{use: algorithm.Use{Digest: "SHA-1"}, until: time.Date(2010, time.January, 1, 0, 0, 0, 0, time.UTC)},
		{use: algorithm.Use{Digest: "MD2"}, never: true},
		{use: algorithm.Use{Digest: "WHIRLPOOL"}, never: true},
		{use: algorithm.Use{Digest: ""}, never: true},
	}
	for _, tt := range tests {
		t.Run(tt.use.String(), func(t *testing.T) {
			l := c.Judge(tt.use)
			if l.Never != tt.never || !l.Until.Equal(tt.until) {
				t.Fatalf("limit %+v, want never %v until %v", l, tt.never, tt.until)
			}
			if tt.never && l.Reason == "" {
				t.Error("a use never acceptable says no reason")
			}
			if !tt.never && l.Source == "" {
				t.Error("a date without its source")
			}
			if got, want := l.AcceptableAt(at(2026)), !tt.never && tt.until.IsZero(); got != want {
				t.Errorf("acceptable in 2026: %v, want %v", got, want)
			}
			if got, want := l.AcceptableAt(at(2003)), !tt.never; got != want {
				t.Errorf("acceptable in 2003: %v, want %v", got, want)
			}
		})
	}
}

func TestParseSignature(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		key    algorithm.Key
		digest algorithm.Digest
		ok     bool
	}{
		{"RSA-SHA256", algorithm.RSA, "SHA-256", true},
		{"RSASSA-PSS-SHA512", algorithm.RSA, "SHA-512", true},
		{"ECDSA-SHA1", algorithm.EC, "SHA-1", true},
		{"PLAIN-ECDSA-SHA384", algorithm.EC, "SHA-384", true},
		{"RSA-MD5", algorithm.RSA, "MD5", true},
		{"RSA-SHA3-256", algorithm.RSA, "SHA3-256", true},
		{"Ed25519", algorithm.Ed25519, "", true},
		{"Ed448-SHA256", algorithm.Ed448, "SHA-256", true},
		{"", "", "", false},
		{"GOST-R3411", "", "", false},
	}
	for _, tt := range tests {
		key, digest, ok := algorithm.ParseSignature(tt.name)
		if key != tt.key || digest != tt.digest || ok != tt.ok {
			t.Errorf("ParseSignature(%q) = %q, %q, %v; want %q, %q, %v", tt.name, key, digest, ok, tt.key, tt.digest, tt.ok)
		}
	}
}

func TestNormalizeDigest(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]algorithm.Digest{
		"SHA256": "SHA-256", "sha-256": "SHA-256", "SHA1": "SHA-1", "SHA-1": "SHA-1", "SHA3-512": "SHA3-512",
		"MD5": "MD5", "RIPEMD160": "RIPEMD-160", "SHA512/256": "SHA-512/256", "SHA-512/256": "SHA-512/256",
	} {
		if got := algorithm.NormalizeDigest(in); got != want {
			t.Errorf("NormalizeDigest(%q) = %q, want %q", in, got, want)
		}
	}
}
