package der_test

import (
	"bytes"
	"math/big"
	"testing"
	"time"

	"github.com/matryer/is"
	"golang.org/x/crypto/cryptobyte"

	"github.com/svc-dss/dss/adapters/formats/internal/der"
)

func TestReadInteger(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []byte
		want int64
		ok   bool
	}{
		{"zero", []byte{0x02, 0x01, 0x00}, 0, true},
		{"minus one", []byte{0x02, 0x01, 0xff}, -1, true},
		{"-128", []byte{0x02, 0x01, 0x80}, -128, true},
		{"128", []byte{0x02, 0x02, 0x00, 0x80}, 128, true},
		{"non-minimal positive", []byte{0x02, 0x02, 0x00, 0x01}, 1, true},
		{"non-minimal negative", []byte{0x02, 0x02, 0xff, 0xff}, -1, true},
		{"negative serial", []byte{0x02, 0x02, 0xed, 0xcc}, -0x1234, true},
		{"empty", []byte{0x02, 0x00}, 0, false},
		{"not an integer", []byte{0x04, 0x01, 0x00}, 0, false},
		{"too long", append([]byte{0x02, 0x41, 0x01}, bytes.Repeat([]byte{0}, 64)...), 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := cryptobyte.String(tt.in)
			n, ok := der.ReadInteger(&s)
			is.Equal(ok, tt.ok)
			if ok {
				is.Equal(n.Cmp(big.NewInt(tt.want)), 0) // value, whatever the representation
			}
		})
	}
}

func TestReadTime(t *testing.T) {
	t.Parallel()
	gt := func(s string) []byte { return append([]byte{0x18, byte(len(s))}, s...) }
	ut := func(s string) []byte { return append([]byte{0x17, byte(len(s))}, s...) }
	tests := []struct {
		name string
		in   []byte
		want time.Time
		ok   bool
	}{
		{"GeneralizedTime", gt("20260115000000Z"), time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC), true},
		{"fractional seconds", gt("20260115000000.25Z"), time.Date(2026, 1, 15, 0, 0, 0, 250e6, time.UTC), true},
		{"offset", gt("20260115010000+0100"), time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC), true},
		{"comma", gt("20260115000000,5Z"), time.Time{}, false},
		{"no zone", gt("20260115000000"), time.Time{}, false},
		{"no seconds", gt("202601150000Z"), time.Time{}, false},
		{"signs in digits", gt("2026-1-15000000Z"), time.Time{}, false},
		{"UTCTime", ut("260115000000Z"), time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC), true},
		{"UTCTime of the last century", ut("990115000000Z"), time.Date(1999, 1, 15, 0, 0, 0, 0, time.UTC), true},
		{"not a time", []byte{0x04, 0x00}, time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := cryptobyte.String(tt.in)
			var got time.Time
			is.Equal(der.ReadTime(&s, &got), tt.ok)
			if tt.ok {
				is.True(got.Equal(tt.want))
				is.Equal(got.Location(), time.UTC)
			}
		})
	}
}

func TestReadExtensions(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	// SEQUENCE { {2.5.29.20, INTEGER 5}, {1.2.3, critical, NULL} }
	in := cryptobyte.String([]byte{
		0x30, 0x17,
		0x30, 0x0a, 0x06, 0x03, 0x55, 0x1d, 0x14, 0x04, 0x03, 0x02, 0x01, 0x05,
		0x30, 0x09, 0x06, 0x02, 0x2a, 0x03, 0x01, 0x01, 0xff, 0x04, 0x00,
	})
	exts, ok := der.ReadExtensions(&in)
	is.True(ok)
	is.Equal(len(exts), 2)
	is.True(!exts[0].Critical)
	is.Equal(exts[0].Value, []byte{0x02, 0x01, 0x05})
	is.True(exts[1].Critical)
	is.Equal(exts[1].Id.String(), "1.2.3")
}
