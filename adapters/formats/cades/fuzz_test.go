package cades_test

import (
	"context"
	"errors"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/cades"
	fixture "github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/ports"
)

// FuzzRead: any input gives signatures or an error wrapping
// ErrNotThisFormat or ErrUnreadable, never a panic or another error.
func FuzzRead(f *testing.F) {
	for _, l := range []fixture.Level{fixture.B, fixture.LTA} {
		f.Add(sign(f, fixture.Options{Level: l}))
	}
	f.Add([]byte{0x30, 0x80, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02, 0xa0, 0x80})
	f.Add([]byte("-----BEGIN PKCS7-----\nMAA=\n-----END PKCS7-----\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := ports.Document{Data: data, Detached: []ports.Detached{{Name: "c", Data: content}}}
		sigs, err := cades.NewReader().Read(context.Background(), doc)
		if err != nil {
			if !errors.Is(err, ports.ErrNotThisFormat) && !errors.Is(err, ports.ErrUnreadable) {
				t.Fatalf("error %v wraps neither sentinel", err)
			}
			if sigs != nil {
				t.Fatal("signatures with an error")
			}
			return
		}
		for _, s := range sigs {
			if s.ID == "" || len(s.DataObjects) != 1 {
				t.Fatalf("signature %+v", s)
			}
		}
	})
}
