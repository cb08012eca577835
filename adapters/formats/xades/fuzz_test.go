package xades_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/xades"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/ports"
)

// FuzzRead: any input is read or refused with ErrNotThisFormat or
// ErrUnreadable, never a panic nor another error.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"xades-018-lta-valid-ocsp.xml", "xades-035-injected-countersig.xml", "xades-036-xmldsig-only.xml", "xades-022-extended-xl.xml"} {
		if b, err := os.ReadFile(filepath.Join(realworld.Dir(), "files", name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo/></ds:Signature>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := ports.Document{Data: data, Detached: []ports.Detached{{Name: "sample.xml", Data: []byte("<a/>")}}}
		_, err := xades.NewReader().Read(context.Background(), doc)
		if err != nil && !errors.Is(err, ports.ErrNotThisFormat) && !errors.Is(err, ports.ErrUnreadable) {
			t.Fatalf("unexpected error: %v", err)
		}
	})
}
