package validator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/svc-dss/dss/adapters/oidc"
	"github.com/svc-dss/dss/app/control"
	"github.com/svc-dss/dss/ports"
)

// The outcomes of Authorize a server turns into statuses
// (validation-service.md §7): 401, 403 and 502.
var (
	// ErrUnauthenticated: no usable bearer token.
	ErrUnauthenticated = errors.New("app: not authenticated")
	// ErrForbidden: an authenticated tenant without the dss.validator
	// license.
	ErrForbidden = errors.New("app: not authorized")
	// ErrAuthUnavailable: the control database or the tenant's identity
	// provider did not answer.
	ErrAuthUnavailable = errors.New("app: control database or identity provider unavailable")
	// ErrSessionStoreUnavailable: the store of the browser UI's
	// sessions (Redis, with several replicas) failed. The browser's
	// session is neither ended nor trusted: the request fails (502).
	ErrSessionStoreUnavailable = errors.New("app: session store unavailable")
)

// FeatureValidator is the license a tenant needs to validate (§1 item 6).
const FeatureValidator = "dss.validator"

// DevelopmentTenant is the tenant of every request under permit-all.
const DevelopmentTenant = "00000000-0000-4000-8000-000000000000"

// A Principal is the authenticated caller of a request.
type Principal struct {
	Tenant  string
	Subject string
	// Development is set under permit-all: nobody was authenticated.
	Development bool
}

// authenticator verifies bearer tokens, enforces the license and finds
// the providers of the UI login.
type authenticator struct {
	verifier ports.BearerVerifier
	// tenants knows each tenant's provider registration.
	tenants  ports.TenantDirectory
	licenses ports.Licenses
	// policies knows each tenant's default validation policy.
	policies ports.TenantPolicies
	clock    func() time.Time
}

// licensed tells whether a tenant holds a feature license now. An error
// is an infrastructure failure.
func (a *authenticator) licensed(ctx context.Context, tenant, feature string) (bool, error) {
	return a.licenses.HasFeature(ctx, tenant, feature, a.clock())
}

// Authorize authenticates an Authorization header value and checks that
// the tenant holds the dss.validator license (§5 items 2 and 3). Under
// permit-all it returns the development tenant without looking at the
// header (§5 item 4). Errors wrap ErrUnauthenticated, ErrForbidden or
// ErrAuthUnavailable. Those of ErrUnauthenticated and ErrForbidden are a
// *RefusalError, whose Detail is what the caller may be told: for a
// token, the Reason of the verifier's *ports.TokenRefusedError (which
// the error wraps), a fixed sentence that never holds the token nor
// anything it claims; empty when the verifier gives none.
func (v *Validator) Authorize(ctx context.Context, header string) (Principal, error) {
	if v.cfg.PermitAll {
		return Principal{Tenant: DevelopmentTenant, Development: true}, nil
	}
	if v.auth == nil {
		// New refuses this configuration; a zero Validator must
		// still fail closed.
		return Principal{}, fmt.Errorf("%w: no control database is configured", ErrAuthUnavailable)
	}
	token, ok := control.BearerToken(header)
	if !ok {
		return Principal{}, refusal(ErrUnauthenticated, "%s", oidc.ReasonMissing)
	}
	id, err := v.auth.verifier.VerifyBearer(ctx, token)
	if err != nil {
		if r, ok := errors.AsType[*ports.TokenRefusedError](err); ok {
			return Principal{}, &RefusalError{Kind: ErrUnauthenticated, Detail: r.Reason, Err: err}
		}
		return Principal{}, fmt.Errorf("%w: %w", ErrAuthUnavailable, err)
	}
	licensed, err := v.auth.licensed(ctx, id.Tenant, FeatureValidator)
	switch {
	case err != nil:
		return Principal{}, fmt.Errorf("%w: license of tenant %s: %w", ErrAuthUnavailable, id.Tenant, err)
	case !licensed:
		return Principal{}, refusal(ErrForbidden, "tenant %s does not hold the %s license", id.Tenant, FeatureValidator)
	}
	return Principal{Tenant: id.Tenant, Subject: id.Subject}, nil
}

// ErrNoControlDB is why the API cannot be served: no control database
// and no permit-all (validation-service.md §1, "Runtime prerequisites").
var ErrNoControlDB = errors.New("svc.dss.control-db.url is blank: tenant authentication and licensing need the control database; " +
	"set it (env SVC_DSS_CONTROL_DB_URL), or, for development only, set svc.dss.validator.security.permit-all=true")

// CheckServing reports whether the API can be served as configured: with
// the control database, or under permit-all. The commands (validate,
// trust-status) run without either.
func (v *Validator) CheckServing() error {
	if v.cfg.PermitAll || v.auth != nil {
		return nil
	}
	return ErrNoControlDB
}

// newAuthenticator verifies tokens against the providers of the control
// database db and reads licenses from it, both through its bounded cache
// (control.Cached).
func newAuthenticator(db *sqlx.DB, clock func() time.Time) *authenticator {
	cached := control.Cached(db, clock)
	return &authenticator{
		verifier: oidc.NewVerifier(oidcProviders(cached), oidc.Options{Clock: clock}),
		tenants:  cached,
		licenses: cached,
		policies: cached,
		clock:    clock,
	}
}

// oidcProviders is the tenant directory d as the OIDC verifier asks it:
// a tenant d does not know is oidc.ErrUnknownTenant (the token is then
// refused), any other error an outage.
func oidcProviders(d ports.TenantDirectory) oidc.Providers {
	return func(ctx context.Context, tenant string) (oidc.Provider, error) {
		p, err := d.Provider(ctx, tenant)
		switch {
		case errors.Is(err, ports.ErrNotFound):
			return oidc.Provider{}, fmt.Errorf("%w: %w", oidc.ErrUnknownTenant, err)
		case err != nil:
			return oidc.Provider{}, err
		}
		return oidc.Provider{Issuer: p.Issuer, Audience: p.Audience, AccessTokens: accessTokenRule(p.AccessTokens)}, nil
	}
}

// accessTokenRule is the verifier's rule for the tenant directory's. An
// unset rule stays unset, and the verifier answers ErrUnavailable.
func accessTokenRule(r ports.AccessTokenRule) oidc.AccessTokenRule {
	switch r {
	case ports.AccessTokensByClaims:
		return oidc.AccessTokensByClaims
	case ports.AccessTokensATJWTOnly:
		return oidc.AccessTokensATJWTOnly
	}
	return 0
}
