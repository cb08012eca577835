package jades_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/jades"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/ports"
)

// FuzzRead: any input is read or refused with ErrNotThisFormat or
// ErrUnreadable, never a panic nor another error.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"jades-001-lta.json", "jades-009-simple-detached.json", "jades-013-t-broken-sigtst.json", "jades-020-object-by-uri-hash.json"} {
		if b, err := os.ReadFile(filepath.Join(realworld.Dir(), "files", name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`eyJhbGciOiJSUzI1NiJ9.cA.cw`))
	f.Add([]byte(`{"payload":"cA","signatures":[{"protected":"eyJhbGciOiJFUzI1NiJ9","header":{"etsiU":[{"sigTst":{"tstTokens":[{"val":"MA=="}]}}]},"signature":"cw"}]}`))
	// Counter-signatures: a flattened one holding a compact one, and one
	// in a base64url component.
	f.Add([]byte(`{"payload":"cA","protected":"eyJhbGciOiJFUzI1NiJ9","header":{"etsiU":[{"cSig":{"protected":"eyJhbGciOiJFUzI1NiJ9","header":{"etsiU":[{"cSig":"eyJhbGciOiJFUzI1NiJ9..cw"}]},"signature":"cw"}}]},"signature":"cw"}`))
	f.Add([]byte(`{"payload":"cA","protected":"eyJhbGciOiJFUzI1NiJ9","header":{"etsiU":["eyJjU2lnIjoiZXlKaGJHY2lPaUpGVXpJMU5pSjkuLmN3In0"]},"signature":"cw"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := ports.Document{Data: data, Detached: []ports.Detached{{Name: "sample.json", Data: []byte(`{"a":1}`)}}}
		_, err := jades.NewReader().Read(context.Background(), doc)
		if err != nil && !errors.Is(err, ports.ErrNotThisFormat) && !errors.Is(err, ports.ErrUnreadable) {
			t.Fatalf("unexpected error: %v", err)
		}
	})
}
