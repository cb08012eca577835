package servertest

import (
	"encoding/json"
	"io"
	"testing"
)

// Problem is an RFC 9457 body as the servers write it.
type Problem struct {
	Type, Title, Detail, Instance, RequestID string
	Status                                   int
}

// Decode reads one JSON value of type T from r, failing the test if it
// cannot.
func Decode[T any](t testing.TB, r io.Reader) T {
	t.Helper()
	var v T
	if err := json.NewDecoder(r).Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}
