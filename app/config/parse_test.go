package config_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/config"
)

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
