package asic_test

import (
	"archive/zip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/asic"
	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/xades"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/ports"
)

// FuzzRead: any input is detected or not, read or refused, never a
// panic, and an error is ErrNotThisFormat or ErrUnreadable.
func FuzzRead(f *testing.F) {
	f.Add(build(f))
	f.Add(build(f, entry{name: "doc.txt", data: []byte("x")}, entry{name: "META-INF/signature.p7s", data: []byte("x"), method: zip.Deflate}))
	f.Add(build(f, entry{name: "a.txt", data: []byte("x")}, entry{name: "META-INF/ASiCManifest.xml", data: []byte(`<asic:ASiCManifest xmlns:asic="http://uri.etsi.org/02918/v1.2.1#"><asic:SigReference URI="META-INF/timestamp.tst"/></asic:ASiCManifest>`)}, entry{name: "META-INF/timestamp.tst", data: []byte{0x30, 0}}))
	if files, _ := filepath.Glob(filepath.Join(realworld.Dir(), "files", "asic-0[0-2]*")); len(files) > 0 {
		for _, p := range files[:min(4, len(files))] {
			if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		asic.Detect(data)
		_, err := asic.NewReader(cades.NewReader(), xades.NewReader()).Read(context.Background(), ports.Document{Name: "fuzz", Data: data})
		if err != nil && !errors.Is(err, ports.ErrNotThisFormat) && !errors.Is(err, ports.ErrUnreadable) {
			t.Fatalf("unexpected error: %v", err)
		}
	})
}
