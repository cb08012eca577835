package jades_test

import (
	"bytes"
	"context"
	"errors"
	mrand "math/rand/v2"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/jades"
	fixture "github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/ports"
)

// TestReadMutations is a deterministic complement to FuzzRead that runs
// with the other tests: thousands of byte-level mutations of fixtures in
// every serialisation (a byte changed, removed, repeated, a range
// duplicated) are each read or refused with ErrNotThisFormat or
// ErrUnreadable, never a panic nor another error.
func TestReadMutations(t *testing.T) {
	t.Parallel()
	var seeds [][]byte
	for _, o := range []fixture.Options{
		{Level: fixture.LTA},
		{Level: fixture.LT, Serialization: fixture.General, ClearComponents: true},
		{Serialization: fixture.Compact},
		{Level: fixture.T, Packaging: fixture.SigD, Unencoded: true},
	} {
		data, _ := signFixture(t, o)
		seeds = append(seeds, data)
	}
	r := mrand.New(mrand.NewChaCha8([32]byte{21}))
	specials := []byte(`{}[]",:\.=_-0 eyJ`)
	for i := range 4000 {
		in := bytes.Clone(seeds[i%len(seeds)])
		for range 1 + r.IntN(3) {
			at := r.IntN(len(in))
			switch r.IntN(4) {
			case 0:
				in[at] = specials[r.IntN(len(specials))]
			case 1:
				in = append(in[:at], in[at+1:]...)
			case 2:
				in = append(in[:at+1], in[at:]...)
			case 3:
				end := min(len(in), at+1+r.IntN(64))
				in = append(in[:end], append(bytes.Clone(in[at:end]), in[end:]...)...)
			}
		}
		doc := ports.Document{Data: in, Detached: []ports.Detached{{Name: fixture.DefaultDocumentName, Data: content}}}
		_, err := jades.NewReader().Read(context.Background(), doc)
		if err != nil && !errors.Is(err, ports.ErrNotThisFormat) && !errors.Is(err, ports.ErrUnreadable) {
			t.Fatalf("mutation %d: unexpected error: %v", i, err)
		}
	}
}
