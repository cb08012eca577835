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
		{use: algorithm.Use{Key: algorithm.RSAPSS, Bits: 2048, Digest: "SHA-256"}},
		{use: algorithm.Use{Key: algorithm.RSAPSS, Bits: 1024, Digest: "SHA-256"}, until: time.Date(2010, time.January, 1, 0, 0, 0, 0, time.UTC)},
		{use: algorithm.Use{Digest: "SHA-224"}, until: time.Date(2029, time.January, 1, 0, 0, 0, 0, time.UTC)},
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
			if got, want := l.AcceptableAt(at(2026)), !tt.never && (tt.until.IsZero() || at(2026).Before(tt.until)); got != want {
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
		{"RSASSA-PSS-SHA512", algorithm.RSAPSS, "SHA-512", true},
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

// TestBuilder judges uses against a catalogue built as a TS 119 322
// document gives it: signature algorithms paired with their digests,
// sizes by evaluation, the laxest evaluation a key fits, and a family's
// own constraints (a curve) with the stricter of both.
func TestBuilder(t *testing.T) {
	t.Parallel()
	day := func(y int) time.Time { return time.Date(y, time.January, 1, 0, 0, 0, 0, time.UTC) }
	var b algorithm.Builder
	b.Digest("SHA-256", algorithm.Limit{Source: "s"})
	b.Digest("SHA-224", algorithm.Limit{Until: day(2029), Source: "s"})
	b.Digest("SHA-224", algorithm.Limit{Until: day(2025), Source: "s"}) // the laxer stays
	b.Signature(algorithm.RSA, "SHA-256", 1900, 0, algorithm.Limit{Until: day(2026), Source: "s"})
	b.Signature(algorithm.RSA, "SHA-256", 3000, 0, algorithm.Limit{Until: day(2034), Source: "s"})
	b.Signature(algorithm.RSA, "SHA-224", 1900, 0, algorithm.Limit{Until: day(2026), Source: "s"})
	b.Signature(algorithm.RSAPSS, "", 3000, 0, algorithm.Limit{Source: "s"})
	b.Signature(algorithm.EC, "SHA-256", 0, 0, algorithm.Limit{Source: "s"})
	b.Key(algorithm.EC, 256, 256, algorithm.Limit{Until: day(2031), Source: "s"})
	b.Key(algorithm.EC, 384, 384, algorithm.Limit{Source: "s"})
	b.Key(algorithm.Ed25519, 0, 0, algorithm.Limit{Source: "s"})
	c := b.Catalogue()
	tests := []struct {
		use   algorithm.Use
		never bool
		until time.Time
	}{
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA-256"}, until: day(2026)},
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 4096, Digest: "SHA-256"}, until: day(2034)},
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA-224"}, until: day(2026)},
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 1024, Digest: "SHA-256"}, never: true},
		{use: algorithm.Use{Key: algorithm.RSA, Bits: 4096, Digest: "SHA-384"}, never: true}, // not listed with RSA
		{use: algorithm.Use{Key: algorithm.RSAPSS, Bits: 4096, Digest: "SHA-256"}},
		{use: algorithm.Use{Key: algorithm.RSAPSS, Bits: 2048, Digest: "SHA-256"}, never: true},
		{use: algorithm.Use{Key: algorithm.EC, Bits: 256, Digest: "SHA-256"}, until: day(2031)},
		{use: algorithm.Use{Key: algorithm.EC, Bits: 384, Digest: "SHA-256"}},
		{use: algorithm.Use{Key: algorithm.EC, Bits: 521, Digest: "SHA-256"}, never: true}, // curve not listed
		{use: algorithm.Use{Key: algorithm.Ed25519, Bits: 256}},
		{use: algorithm.Use{Key: algorithm.Ed25519, Bits: 256, Digest: "SHA-256"}, never: true}, // RFC 8419
		{use: algorithm.Use{Key: algorithm.Ed448, Bits: 448}, never: true},
		{use: algorithm.Use{Key: algorithm.DSA, Bits: 3072, Digest: "SHA-256"}, never: true},
		{use: algorithm.Use{Digest: "SHA-1"}, never: true},
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
		})
	}
	if !(algorithm.Catalogue{}).Empty() || c.Empty() || algorithm.Default().Empty() {
		t.Error("Empty: the zero catalogue only")
	}
	if again := b.Catalogue(); !again.Empty() {
		t.Error("the Builder did not start afresh")
	}
}
