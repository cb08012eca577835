package validator

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/ports"
)

func TestResolveSecret(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "secret")
	if err := os.WriteFile(file, []byte("s3cret\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"SECRET_A": "from-env", "BLANK": ""}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		ref, want, err string
	}{
		{"", "", ""}, // a public client
		{"env:SECRET_A", "from-env", ""},
		{"file:" + file, "s3cret", ""},
		{"env:MISSING", "", `"env:MISSING" names environment variable MISSING, which is not set`},
		{"env:BLANK", "", `"env:BLANK" names environment variable BLANK, which is not set`},
		{"env:", "", `"env:" is neither env:NAME nor file:/absolute/path`},
		{"file:relative/path", "", `"file:relative/path" is neither env:NAME nor file:/absolute/path`},
		{"file:" + empty, "", `"file:` + empty + `" names an empty file`},
		{"file:" + filepath.Join(dir, "nope"), "", `"file:` + filepath.Join(dir, "nope") + `": open ` + filepath.Join(dir, "nope") + `: no such file or directory`},
		{"s3cret", "", `"s3cret" is neither env:NAME nor file:/absolute/path`},
	}
	for _, tt := range tests {
		is := is.New(t)
		got, err := resolveSecret(tt.ref, lookup)
		if tt.err != "" {
			is.True(err != nil) // tt.ref
			is.Equal(err.Error(), tt.err)
			continue
		}
		is.NoErr(err)
		is.Equal(got, tt.want)
	}
}

func TestRedirectURI(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	is.Equal(redirectURI("", "http://localhost:8090"), "http://localhost:8090/validate/callback")
	is.Equal(redirectURI("https://b.example.test/dss/", "http://localhost:8090"), "https://b.example.test/dss/validate/callback")
}

func TestExpiry(t *testing.T) {
	t.Parallel()
	v := &Validator{cfg: config.Validator{Session: config.Session{IdleTimeout: 30 * time.Minute, AbsoluteTimeout: 8 * time.Hour}}}
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	signedIn := ports.Session{Tenant: "t", Started: t0}
	tests := []struct {
		name string
		s    ports.Session
		now  time.Time
		want time.Time
	}{
		{"idle from now", signedIn, t0.Add(time.Hour), t0.Add(90 * time.Minute)},
		{"never past the absolute end", signedIn, t0.Add(7*time.Hour + 45*time.Minute), t0.Add(8 * time.Hour)},
	}
	for _, tt := range tests {
		is.New(t).Equal(v.expiry(tt.s, tt.now), tt.want) // tt.name
	}
}

func TestFingerprint(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	is.Equal(Fingerprint(""), "")
	is.Equal(len(Fingerprint("x")), 12)
}

// A login in progress lives in the browser, sealed: it opens only
// unaltered, and only in the process that sealed it.
func TestSealedLogin(t *testing.T) {
	t.Parallel()
	lg, other := newLogin(nil, nil, ""), newLogin(nil, nil, "")
	l := pendingLogin{Tenant: "t", State: randomToken(), Nonce: randomToken(), Verifier: randomToken(),
		RedirectURI: "https://validate.example.test/validate/callback", Until: time.Date(2026, 3, 1, 9, 10, 0, 0, time.UTC)}
	sealed := lg.sealLogin(l)
	is := is.New(t)
	got, err := lg.openLogin(sealed)
	is.NoErr(err)
	is.Equal(got, l)
	is.True(lg.sealLogin(l) != sealed) // a fresh nonce each time
	is.True(len(sealed) < 600)         // a cookie, well under 4 KB

	altered := []byte(sealed)
	altered[len(altered)/2] ^= 1
	tests := []struct{ name, sealed string }{
		{"none", ""},
		{"altered", string(altered)},
		{"cut short", sealed[:len(sealed)-1]},
		{"not base64url", "%%%"},
		{"shorter than a nonce", "AAAA"},
	}
	for _, tt := range tests {
		_, err := lg.openLogin(tt.sealed)
		is.Equal(err, errNoLogin) // tt.name
	}
	_, err = other.openLogin(sealed)
	is.Equal(err, errNoLogin) // another process, or this one restarted
}

// Replicas with the same login key open each other's sealed logins;
// with another key, or none, they do not.
func TestSealedLoginSharedKey(t *testing.T) {
	t.Parallel()
	const secret = "0123456789abcdef0123456789abcdef"
	l := pendingLogin{Tenant: "t", State: randomToken(), Until: time.Date(2026, 3, 1, 9, 10, 0, 0, time.UTC)}
	sealed := newLogin(nil, nil, secret).sealLogin(l)
	tests := []struct {
		name   string
		secret string
		opens  bool
	}{
		{"same key", secret, true},
		{"another key", "fedcba9876543210fedcba9876543210", false},
		{"no key", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			got, err := newLogin(nil, nil, tt.secret).openLogin(sealed)
			if !tt.opens {
				is.Equal(err, errNoLogin)
				return
			}
			is.NoErr(err)
			is.Equal(got, l)
		})
	}
}
