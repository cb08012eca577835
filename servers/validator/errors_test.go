package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/ports"
)

// problemFor is the one place statuses are chosen (validation-service.md
// §7). The end-to-end tests reach 400 and 413 through real uploads; an
// infrastructure failure cannot be caused from outside the process, so
// its mapping is checked here.
func TestProblemFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		err    error
		status int
		typ    string
		detail string
	}{
		{"unreadable upload", fmt.Errorf("%w: the uploaded file is empty", ports.ErrUnreadable), 400,
			"urn:svc-dss:problem:unreadable-upload", "unreadable document: the uploaded file is empty"},
		{"infrastructure failure hides its cause", errInfrastructure{fmt.Errorf("app: revocation: %w", errors.New("dial tcp 10.0.0.7:5432: connection refused"))}, 502,
			"urn:svc-dss:problem:infrastructure-failure", "validation could not run: an infrastructure failure; quote the request id when reporting it"},
		{"anything else is internal", errors.New("nil map"), 500,
			"about:blank", "internal error; quote the request id when reporting it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			p := problemFor(tt.err)
			is.Equal(p.Status, tt.status)
			is.Equal(p.Type, tt.typ)
			is.Equal(p.Detail, tt.detail)
		})
	}
}
