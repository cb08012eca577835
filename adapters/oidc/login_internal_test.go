package oidc

import (
	"context"
	"testing"

	"github.com/matryer/is"
)

// A verifier asked without withNonce expects a nonce no token has.
func TestExpectedNonceFailsClosed(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	is.True(expectedNonce(context.Background()) != "")
	is.Equal(expectedNonce(withNonce(context.Background(), "n")), "n")
}

// Error codes from the browser's query string are shown only when they
// look like OAuth error codes.
func TestErrorCode(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	is.Equal(ErrorCode("access_denied"), "access_denied")
	is.Equal(ErrorCode("<b>"), "an unrecognised error")
	is.Equal(ErrorCode(""), "an unrecognised error")
}
