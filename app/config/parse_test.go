package config_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/config"
)

func TestParseDuration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want time.Duration
		err  string
	}{
		{in: "P7D", want: 7 * 24 * time.Hour},
		{in: "PT30S", want: 30 * time.Second},
		{in: "P1D", want: 24 * time.Hour},
		{in: "p2w", want: 14 * 24 * time.Hour},
		{in: "P1DT2H3M4.5S", want: 26*time.Hour + 3*time.Minute + 4500*time.Millisecond},
		{in: "PT0,25S", want: 250 * time.Millisecond},
		{in: "PT0S", want: 0},
		{in: "", err: "empty duration"},
		{in: "7D", err: `invalid ISO-8601 duration "7D": must start with P (e.g. P7D, PT30S)`},
		{in: "P", err: `invalid ISO-8601 duration "P": no components`},
		{in: "PT", err: `invalid ISO-8601 duration "PT": no components`},
		{in: "P1H", err: `invalid ISO-8601 duration "P1H": unknown unit H`},
		{in: "PT1D", err: `invalid ISO-8601 duration "PT1D": unknown unit D`},
		{in: "P1Y", err: `invalid ISO-8601 duration "P1Y": years and months have no fixed length; use days (P30D)`},
		{in: "P1.5D", err: `invalid ISO-8601 duration "P1.5D": only seconds may have a fraction`},
		{in: "P1D1D", err: `invalid ISO-8601 duration "P1D1D": unit D repeated`},
		{in: "PT1H2", err: `invalid ISO-8601 duration "PT1H2": expected a number followed by a unit`},
		{in: "P1DTT1H", err: `invalid ISO-8601 duration "P1DTT1H": T appears twice`},
		{in: "P99999999999D", err: `invalid ISO-8601 duration "P99999999999D": too long`},
		{in: "-P1D", err: `invalid ISO-8601 duration "-P1D": must start with P (e.g. P7D, PT30S)`},
	}
	for _, tt := range tests {
		got, err := config.ParseDuration(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("ParseDuration(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestFormatDurationRoundTrips(t *testing.T) {
	t.Parallel()
	for _, d := range []time.Duration{0, time.Second, 30 * time.Second, 90 * time.Minute, 7 * 24 * time.Hour, 24*time.Hour + 1500*time.Millisecond} {
		s := config.FormatDuration(d)
		back, err := config.ParseDuration(s)
		if err != nil || back != d {
			t.Errorf("FormatDuration(%v) = %q, parses back to %v, %v", d, s, back, err)
		}
	}
}

func TestParseDataSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int64
		err  bool
	}{
		{in: "20MB", want: 20 << 20},
		{in: "40mb", want: 40 << 20},
		{in: "512", want: 512},
		{in: "512B", want: 512},
		{in: "10KB", want: 10 << 10},
		{in: "2GB", want: 2 << 30},
		{in: "1TB", want: 1 << 40},
		{in: "MB", err: true},
		{in: "1.5MB", err: true},
		{in: "-1", err: true},
		{in: "99999999999TB", err: true},
	}
	for _, tt := range tests {
		got, err := config.ParseDataSize(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseDataSize(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestResolveLocation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw, root string
		want      config.Location
		err       string
	}{
		{raw: "classpath:tl/eu.p12", root: "/opt/res", want: config.Location{Raw: "classpath:tl/eu.p12", Classpath: true, Path: "/opt/res/tl/eu.p12"}},
		{raw: "classpath:/certs/ch.cer", want: config.Location{Raw: "classpath:/certs/ch.cer", Classpath: true, Path: "certs/ch.cer"}},
		{raw: "file:/etc/svc/x.cer", want: config.Location{Raw: "file:/etc/svc/x.cer", Path: "/etc/svc/x.cer"}},
		{raw: "file:///etc/svc/x%20y.cer", want: config.Location{Raw: "file:///etc/svc/x%20y.cer", Path: "/etc/svc/x y.cer"}},
		{raw: "file://localhost/etc/x", want: config.Location{Raw: "file://localhost/etc/x", Path: "/etc/x"}},
		{raw: "file:rel/x.cer", want: config.Location{Raw: "file:rel/x.cer", Path: "rel/x.cer"}},
		{raw: "/etc/x/../y.cer", want: config.Location{Raw: "/etc/x/../y.cer", Path: "/etc/y.cer"}},
		{raw: "classpath:../../etc/passwd", err: `location "classpath:../../etc/passwd" leaves the resource root`},
		{raw: "classpath:", err: `location "classpath:" names no resource`},
		{raw: "file://remote/x", err: `location "file://remote/x": file URIs on another host are not supported`},
		{raw: "https://example/x.cer", err: `location "https://example/x.cer": only classpath:, file: and plain paths are supported`},
		{raw: "", err: "empty location"},
	}
	for _, tt := range tests {
		got, err := config.ResolveLocation(tt.raw, tt.root)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("ResolveLocation(%q) error = %v, want %q", tt.raw, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ResolveLocation(%q, %q) = %+v, %v; want %+v", tt.raw, tt.root, got, err, tt.want)
		}
	}
}

func TestYAMLKeySetTwice(t *testing.T) {
	is := is.New(t)
	path := filepath.Join(t.TempDir(), "twice.yaml")
	is.NoErr(os.WriteFile(path, []byte("server.port: 1\nserver:\n  port: 2\n"), 0o600))
	_, err := config.LoadValidator([]string{"--config", path}, nil, io.Discard)
	is.Equal(err.Error(), "config: "+path+`: key "server.port" is set twice`)
}
