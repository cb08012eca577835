package timestamp_test

import (
	"context"
	"errors"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/timestamp"
	"github.com/svc-dss/dss/ports"
)

// FuzzRead: any input is detected or not, read or refused, never a
// panic; an error is ErrNotThisFormat exactly when Detect does not claim
// the input, else ErrUnreadable.
func FuzzRead(f *testing.F) {
	content := []byte("the contract\n")
	token, response := tokens(f, content)
	f.Add(token, content)
	f.Add(response, content)
	f.Add(token[:len(token)/2], []byte(nil))
	f.Add([]byte{0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x02}, []byte(nil))
	f.Fuzz(func(t *testing.T, data, detached []byte) {
		claimed := timestamp.Detect(data)
		c, err := timestamp.NewReader().ReadContents(context.Background(), ports.Document{Name: "fuzz", Data: data, Detached: []ports.Detached{{Name: "d", Data: detached}}})
		switch {
		case err == nil:
			if !claimed || len(c.Timestamps) != 1 {
				t.Fatalf("read %d entries of data Detect claims %v", len(c.Timestamps), claimed)
			}
		case errors.Is(err, ports.ErrNotThisFormat):
			if claimed {
				t.Fatalf("claimed, then not this format: %v", err)
			}
		case !errors.Is(err, ports.ErrUnreadable):
			t.Fatalf("unexpected error: %v", err)
		}
	})
}
