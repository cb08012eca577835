package problem_test

import (
	"net/http"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/servers/internal/problem"
)

// TestSlug: the short name metrics count answers by.
func TestSlug(t *testing.T) {
	tests := []struct {
		p    problem.Problem
		want string
	}{
		{problem.New(http.StatusRequestEntityTooLarge, "payload-too-large", "x"), "payload-too-large"},
		{problem.New(http.StatusNotFound, "", "x"), "not-found"},
		{problem.New(http.StatusMethodNotAllowed, "", ""), "method-not-allowed"},
		{problem.Internal(), "internal-server-error"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			is := is.New(t)
			is.Equal(tt.p.Slug(), tt.want)
		})
	}
}
