package main

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/app/validator"
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
		{"a document its reader cannot read: no name, no bytes of it", &validation.UnreadableError{Err: fmt.Errorf("%w: pades: <b>contract</b>.pdf: signature \"Sig\\u0000\": /SubFilter \"<script>\" is not one this service reads", ports.ErrUnreadable)}, 400,
			"urn:svc-dss:problem:unreadable-upload", "unreadable document: it is in a format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST), but its structure cannot be read"},
		{"infrastructure failure hides its cause", errInfrastructure{fmt.Errorf("app: revocation: %w", errors.New("dial tcp 10.0.0.7:5432: connection refused"))}, 502,
			"urn:svc-dss:problem:infrastructure-failure", "validation could not run: an infrastructure failure; quote the request id when reporting it"},
		{"a sign-in that cannot run hides its cause", fmt.Errorf("%w: provider of tenant x: %w", validator.ErrAuthUnavailable, errors.New("dial tcp 10.0.0.7:443: i/o timeout")), 502,
			"urn:svc-dss:problem:infrastructure-failure", "The sign-in or the license check could not run: the control database or the tenant's identity provider did not answer, or the tenant's registration is incomplete. Quote the request id when reporting it."},
		{"a refused ID token says why", &validator.RefusalError{Kind: validator.ErrUnauthenticated, Detail: "the ID token has expired"}, 401,
			"urn:svc-dss:problem:unauthenticated", "The sign-in failed: the ID token has expired."},
		{"a refusal's cause is for the log, not the page", &validator.RefusalError{Kind: validator.ErrUnauthenticated, Detail: "the ID token is not valid", Err: errors.New("oidc: token is expired")}, 401,
			"urn:svc-dss:problem:unauthenticated", "The sign-in failed: the ID token is not valid."},
		{"a refusal wrapped on its way keeps its detail", fmt.Errorf("ui: callback: %w", &validator.RefusalError{Kind: validator.ErrLoginState, Detail: "the tenant's redirect URI changed during the sign-in"}), 401,
			"urn:svc-dss:problem:unauthenticated", "The sign-in could not be completed: the tenant's redirect URI changed during the sign-in. Start it again."},
		{"a refusal without a detail says only its kind", &validator.RefusalError{Kind: validator.ErrForbidden}, 403,
			"urn:svc-dss:problem:forbidden", "Access refused."},
		{"an error's text is never shown, even after the sentinel's", fmt.Errorf("%w: tenant 11111111-1111-4111-8111-111111111111 at db.internal:5432", validator.ErrForbidden), 403,
			"urn:svc-dss:problem:forbidden", "Access refused."},
		{"no session", fmt.Errorf("session: expired: %w", ports.ErrNoSession), 401,
			"urn:svc-dss:problem:unauthenticated", "You are not signed in, or your session has ended. Sign in again to continue."},
		{"a report before any validation", errNoReport, 404,
			"urn:svc-dss:problem:no-validated-document", "No document has been validated in this session yet: validate one, then download its reports."},
		{"a validation that panicked is a bug of ours", &validation.PanicError{Value: "assignment to entry in nil map"}, 500,
			"urn:svc-dss:problem:internal-error", "validation could not run: an internal error of this service, not a fault of the document; quote the request id when reporting it"},
		{"a panic wrapped as an infrastructure failure (the handlers wrap) is still a bug", errInfrastructure{&validation.PanicError{Value: "boom"}}, 500,
			"urn:svc-dss:problem:internal-error", "validation could not run: an internal error of this service, not a fault of the document; quote the request id when reporting it"},
		{"a panic outranks the other signatures' errors", errInfrastructure{errors.Join(errors.New("app: revocation: timeout"), &validation.PanicError{Value: "boom"})}, 500,
			"urn:svc-dss:problem:internal-error", "validation could not run: an internal error of this service, not a fault of the document; quote the request id when reporting it"},
		{"a validation past its deadline", validationFailure(fmt.Errorf("validation stopped: %w", context.DeadlineExceeded)), 503,
			"urn:svc-dss:problem:validation-timeout", "validation did not finish within 5m0s: the service stopped it; try again later, and quote the request id when reporting it"},
		{"a panic outranks the deadline", validationFailure(errors.Join(&validation.PanicError{Value: "boom"}, context.DeadlineExceeded)), 500,
			"urn:svc-dss:problem:internal-error", "validation could not run: an internal error of this service, not a fault of the document; quote the request id when reporting it"},
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
