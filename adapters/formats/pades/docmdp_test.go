package pades_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/cades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
)

// The permissions a signature granted are those of its own signed
// revision: a later update that drops the catalog's /Perms, writes a new
// version of the signature dictionary or field, or points the form or
// /Perms at a copy with other permissions lifts nothing. Each attack keeps
// the signature valid, so that only the permissions can catch it.
func TestMDPAsSigned(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	sign := func(t *testing.T, d *fixture.Document, o fixture.Options, i int) {
		t.Helper()
		o.PKI, o.Signer = p, p.SignerRSA
		o.SigningTime = signedAt.Add(time.Duration(i) * time.Hour)
		must(t, d.Sign(o))
	}
	body := func(t *testing.T, d *fixture.Document, n int) string {
		t.Helper()
		b, err := d.Body(n)
		must(t, err)
		return b
	}
	// edit replaces old in s, which must hold it: an attack that changes
	// nothing would test nothing.
	edit := func(t *testing.T, s, old, new string) string {
		t.Helper()
		if !strings.Contains(s, old) {
			t.Fatalf("%q not in %.200s", old, s)
		}
		return strings.Replace(s, old, new, 1)
	}
	// sigField is the first signature field, and the number of its
	// signature dictionary.
	sigField := func(t *testing.T, d *fixture.Document) (field, sig int) {
		t.Helper()
		for _, n := range d.Objects().Fields {
			if m := regexp.MustCompile(`/FT /Sig .*/V (\d+) 0 R`).FindStringSubmatch(body(t, d, n)); m != nil {
				sig, _ = strconv.Atoi(m[1])
				return n, sig
			}
		}
		t.Fatal("no signature field")
		return 0, 0
	}
	// textField is the field AddTextField wrote first.
	textField := func(d *fixture.Document) int { return d.Objects().Fields[0] }
	withoutPerms := regexp.MustCompile(` /Perms << /DocMDP \d+ 0 R >>`)

	tests := []struct {
		name  string
		build func(t *testing.T, d *fixture.Document)
		// code is the violation the first signature must report, naming
		// the change (naming); "" when no DocMDP or FieldMDP violation
		// may be reported on any signature.
		code, naming string
	}{
		// Attacks.
		{"P1: /Perms dropped from the catalog, then a field filled", func(t *testing.T, d *fixture.Document) {
			d.AddTextField("name", "Alice")
			sign(t, d, fixture.Options{Level: cades.B, CertifyPermissions: 1}, 0)
			o := d.Objects()
			d.Update(map[int]string{
				o.Catalog:    withoutPerms.ReplaceAllString(body(t, d, o.Catalog), ""),
				textField(d): edit(t, body(t, d, textField(d)), "(Alice)", "(Mallory)"),
			}, 0)
		}, pades.CodeDocMDPViolated, "name"},
		{"P2: /Perms dropped from the catalog, then an annotation added", func(t *testing.T, d *fixture.Document) {
			sign(t, d, fixture.Options{Level: cades.B, CertifyPermissions: 2}, 0)
			o := d.Objects()
			d.Update(map[int]string{o.Catalog: withoutPerms.ReplaceAllString(body(t, d, o.Catalog), "")}, 0)
			d.AddAnnotation()
		}, pades.CodeDocMDPViolated, "annotation"},
		{"P1: the signature dictionary rewritten with /P 3, then an annotation added", func(t *testing.T, d *fixture.Document) {
			sign(t, d, fixture.Options{Level: cades.B, CertifyPermissions: 1}, 0)
			_, sig := sigField(t, d)
			d.Update(map[int]string{sig: edit(t, body(t, d, sig), "/P 1 ", "/P 3 ")}, 0)
			d.AddAnnotation()
		}, pades.CodeDocMDPViolated, "annotation"},
		{"P1: the field and /Perms pointed at a copy of the signature dictionary with /P 3, then a field filled", func(t *testing.T, d *fixture.Document) {
			d.AddTextField("name", "Alice")
			sign(t, d, fixture.Options{Level: cades.B, CertifyPermissions: 1}, 0)
			o := d.Objects()
			field, sig := sigField(t, d)
			cp := d.Alloc()
			d.Update(map[int]string{
				cp:           edit(t, body(t, d, sig), "/P 1 ", "/P 3 "),
				field:        edit(t, body(t, d, field), fixture.Ref(sig), fixture.Ref(cp)),
				o.Catalog:    edit(t, body(t, d, o.Catalog), "/DocMDP "+fixture.Ref(sig), "/DocMDP "+fixture.Ref(cp)),
				textField(d): edit(t, body(t, d, textField(d)), "(Alice)", "(Mallory)"),
			}, 0)
		}, pades.CodeDocMDPViolated, "name"},
		{"P2: the field's /V a direct copy of the signature dictionary with /P 3, then an annotation added", func(t *testing.T, d *fixture.Document) {
			sign(t, d, fixture.Options{Level: cades.B, CertifyPermissions: 2}, 0)
			field, sig := sigField(t, d)
			d.Update(map[int]string{field: edit(t, body(t, d, field), fixture.Ref(sig), edit(t, body(t, d, sig), "/P 2 ", "/P 3 "))}, 0)
			d.AddAnnotation()
		}, pades.CodeDocMDPViolated, "annotation"},
		{"lock: the signature field rewritten without /Lock, then the locked field filled", func(t *testing.T, d *fixture.Document) {
			d.AddTextField("name", "Alice")
			sign(t, d, fixture.Options{Level: cades.B, LockFields: []string{"name"}}, 0)
			field, _ := sigField(t, d)
			d.Update(map[int]string{
				field:        regexp.MustCompile(` /Lock << .*>> >>$`).ReplaceAllString(body(t, d, field), " >>"),
				textField(d): edit(t, body(t, d, textField(d)), "(Alice)", "(Mallory)"),
			}, 0)
		}, pades.CodeFieldMDPViolated, "name"},
		{"lock: the form given a new signature field without /Lock, then the locked field filled", func(t *testing.T, d *fixture.Document) {
			d.AddTextField("name", "Alice")
			sign(t, d, fixture.Options{Level: cades.B, LockFields: []string{"name"}}, 0)
			o := d.Objects()
			field, _ := sigField(t, d)
			n := d.Alloc()
			d.Update(map[int]string{
				n:            regexp.MustCompile(` /Lock << .*>> >>$`).ReplaceAllString(body(t, d, field), " >>"),
				o.Catalog:    edit(t, body(t, d, o.Catalog), fixture.Ref(field)+"]", fixture.Ref(n)+"]"),
				o.Pages[0]:   edit(t, body(t, d, o.Pages[0]), fixture.Ref(field)+"]", fixture.Ref(n)+"]"),
				textField(d): edit(t, body(t, d, textField(d)), "(Alice)", "(Mallory)"),
			}, 0)
		}, pades.CodeFieldMDPViolated, "name"},

		// What the permissions allow.
		{"P1: a DSS and a document time-stamp", func(t *testing.T, d *fixture.Document) {
			sign(t, d, fixture.Options{Level: cades.T, CertifyPermissions: 1}, 0)
			must(t, d.AddDSS(fixture.DSSOptions{PKI: p, At: signedAt.Add(time.Hour)}))
			must(t, d.AddDocumentTimestamp(fixture.TimestampOptions{PKI: p, At: signedAt.Add(2 * time.Hour)}))
		}, "", ""},
		{"P2: a field filled, a second signature, a DSS and a document time-stamp", func(t *testing.T, d *fixture.Document) {
			d.AddTextField("name", "Alice")
			sign(t, d, fixture.Options{Level: cades.T, CertifyPermissions: 2}, 0)
			must(t, d.FillTextField("name", "Bob"))
			sign(t, d, fixture.Options{Level: cades.T}, 1)
			must(t, d.AddDSS(fixture.DSSOptions{PKI: p, At: signedAt.Add(2 * time.Hour)}))
			must(t, d.AddDocumentTimestamp(fixture.TimestampOptions{PKI: p, At: signedAt.Add(3 * time.Hour)}))
		}, "", ""},
		{"P3: a field filled and an annotation added", func(t *testing.T, d *fixture.Document) {
			d.AddTextField("name", "Alice")
			sign(t, d, fixture.Options{Level: cades.B, CertifyPermissions: 3}, 0)
			must(t, d.FillTextField("name", "Bob"))
			d.AddAnnotation()
		}, "", ""},
		{"lock: a field it does not lock filled, after a signature that locks none", func(t *testing.T, d *fixture.Document) {
			d.AddTextField("name", "Alice")
			d.AddTextField("note", "")
			sign(t, d, fixture.Options{Level: cades.B, LockFields: []string{"name"}}, 0)
			sign(t, d, fixture.Options{Level: cades.B}, 1)
			must(t, d.FillTextField("note", "seen"))
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := fixture.New(1)
			tt.build(t, d)
			sigs := read(t, d.Bytes())
			if len(sigs) == 0 {
				t.Fatal("no signature read")
			}
			for i, s := range sigs {
				if !sound(s) {
					t.Fatalf("signature %d does not verify: the attack must leave it valid", i)
				}
				mdp := slices.DeleteFunc(slices.Clone(s.Problems), func(p ades.Problem) bool {
					return p.Code != pades.CodeDocMDPViolated && p.Code != pades.CodeFieldMDPViolated
				})
				if tt.code == "" || i > 0 {
					if len(mdp) > 0 {
						t.Errorf("signature %d: %v, want no DocMDP or FieldMDP violation", i, mdp)
					}
					continue
				}
				if !slices.ContainsFunc(mdp, func(p ades.Problem) bool { return p.Code == tt.code && strings.Contains(p.Message, tt.naming) }) {
					t.Errorf("signature %d: %v, want %s naming %q", i, s.Problems, tt.code, tt.naming)
				}
			}
		})
	}
}
