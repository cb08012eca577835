package validator_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validator"
)

// A refusal is of its kind and of its cause, and its detail is found
// through any wrapping: what a server shows, without reading the text.
func TestRefusalError(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	cause := errors.New("token refused: kid k-1 unknown")
	err := fmt.Errorf("ui: %w", &validator.RefusalError{Kind: validator.ErrUnauthenticated, Detail: "the token's signature does not verify", Err: cause})
	is.True(errors.Is(err, validator.ErrUnauthenticated))
	is.True(errors.Is(err, cause))
	is.True(!errors.Is(err, validator.ErrForbidden))
	r, ok := errors.AsType[*validator.RefusalError](err)
	is.True(ok)
	is.Equal(r.Detail, "the token's signature does not verify")
	is.Equal(err.Error(), "ui: app: not authenticated: the token's signature does not verify: token refused: kid k-1 unknown") // the log's

	bare := &validator.RefusalError{Kind: validator.ErrForbidden}
	is.Equal(bare.Error(), "app: not authorized")
	is.True(errors.Is(bare, validator.ErrForbidden))
}
