package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/tl"
)

// TestTrustImport: `trust import` seeds the configured cache from list
// files, each checked as a refresh checks it. The fixture ecosystem's
// lists are written to files, FR's tampered after signing: EU, DE and CH
// are stored and trust status then reads them from the cache; FR is
// refused, not stored, and the exit status says so. The good FR list,
// imported alone afterwards, is placed by the cached LOTL's pointer and
// stored.
func TestTrustImport(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	eco, env := ecosystem(t)
	good := listFiles(t, eco, t.TempDir(), nil)
	bad := listFiles(t, eco, t.TempDir(), map[string]tl.Defect{"FR": tl.Tampered})

	status := func() map[string]verdict.ListStatus {
		t.Helper()
		code, out, _ := command(t, env, "trust", "status")
		is.Equal(code, 0)
		var td verdict.TrustData
		is.NoErr(json.Unmarshal([]byte(out), &td))
		lists := map[string]verdict.ListStatus{}
		for _, l := range td.Lists {
			lists[l.Territory] = l
		}
		return lists
	}

	code, out, logs := command(t, env, "trust", "import", good["EU"], good["DE"], bad["FR"], good["CH"])
	is.Equal(code, 1) // FR was refused
	want := []string{
		good["EU"] + "\tEU\tVALID\tstored",
		good["DE"] + "\tDE\tVALID\tstored",
		bad["FR"] + "\tFR\tINVALID\trefused: its own signature is INVALID (ALTERED)",
		good["CH"] + "\tCH\tVALID\tstored",
	}
	is.Equal(strings.Split(strings.TrimSuffix(out, "\n"), "\n"), want)
	if t.Failed() {
		t.Log(logs)
	}
	lists := status()
	for _, territory := range []string{"EU", "DE", "CH"} {
		is.Equal(lists[territory].Authenticity, "VALID") // from the cache
	}
	is.Equal(lists["FR"].Authenticity, "") // not stored
	is.Equal(lists["FR"].SequenceNumber, nil)

	code, out, _ = command(t, env, "trust", "import", good["FR"])
	is.Equal(code, 0)
	is.Equal(out, good["FR"]+"\tFR\tVALID\tstored\n")
	lists = status()
	for _, territory := range []string{"EU", "DE", "FR", "CH"} {
		is.Equal(lists[territory].Authenticity, "VALID")
	}

	// A tampered copy later is refused and leaves the stored one, and its
	// bookkeeping, as they were.
	code, out, _ = command(t, env, "trust", "import", bad["FR"])
	is.Equal(code, 1)
	is.Equal(out, bad["FR"]+"\tFR\tINVALID\trefused: its own signature is INVALID (ALTERED)\n")
	after := status()
	is.Equal(after["FR"], lists["FR"])
}

// TestTrustImportErrors: the usage errors and the lists that cannot be
// placed, each with its line and exit status; nothing is stored.
func TestTrustImportErrors(t *testing.T) {
	t.Parallel()
	eco, env := ecosystem(t)
	dir := t.TempDir()
	good := listFiles(t, eco, dir, nil)
	tampered := listFiles(t, eco, t.TempDir(), map[string]tl.Defect{"EU": tl.Tampered})
	wrong := listFiles(t, eco, t.TempDir(), map[string]tl.Defect{"DE": tl.WrongSigner})
	missing := filepath.Join(dir, "nope.xml")
	notList := write(t, dir, "catalog.xml", []byte(`<?xml version="1.0"?><catalog/>`))
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"no file", nil, 2, "", "trust import: no file"},
		{"a flag", []string{good["EU"], "--force"}, 2, "", "flag provided but not defined: -force"},
		{"missing file", []string{missing}, 1, "", "trust import: open " + missing + ": no such file or directory"},
		{"a member list without a LOTL, none cached", []string{good["DE"]}, 1,
			good["DE"] + "\tDE\tUNCHECKED\trefused: the list of DE needs the list of trusted lists that points to it, given or cached\n", ""},
		{"a file that is no list", []string{notList}, 1,
			notList + "\t?\tUNCHECKED\trefused: does not parse: trustlist: unparseable trusted list: not a TrustServiceStatusList: root element is {}catalog\n", ""},
		{"a tampered LOTL: neither it nor the lists it points to", []string{tampered["EU"], tampered["DE"]}, 1,
			tampered["EU"] + "\tEU\tINVALID\trefused: its own signature is INVALID (ALTERED)\n" +
				tampered["DE"] + "\tDE\tUNCHECKED\trefused: not checked: the list of trusted lists that points to it was refused\n", ""},
		{"a member list signed by a key its pointer does not name", []string{good["EU"], wrong["DE"]}, 1,
			good["EU"] + "\tEU\tVALID\tstored\n" + wrong["DE"] + "\tDE\tINDETERMINATE\trefused: its own signature is INDETERMINATE (SIGNER_NOT_ALLOWED)\n", ""},
		{"two LOTLs", []string{good["EU"], good["EU"]}, 1,
			good["EU"] + "\tEU\tVALID\tstored\n" + good["EU"] + "\tEU\tUNCHECKED\trefused: a second list of trusted lists\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			code, out, stderr := command(t, append(env, "SVC_DSS_TL_CACHE="+t.TempDir()), append([]string{"trust", "import"}, tt.args...)...)
			is.Equal(code, tt.code)
			is.Equal(out, tt.stdout)
			if tt.stderr != "" && !strings.Contains(stderr, tt.stderr+"\n") {
				t.Errorf("stderr has no line %q:\n%s", tt.stderr, stderr)
			}
			if tt.code == 2 {
				is.True(strings.Contains(stderr, commandUsage))
			}
		})
	}
}
