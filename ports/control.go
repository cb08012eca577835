package ports

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is wrapped by the error of a control-data lookup for a
// tenant, provider, client key or partition that is not registered, or
// whose tenant is disabled or not a UUID. Callers answer 401, 403 or 400,
// never 502.
var ErrNotFound = errors.New("not found")

// A Provider is a tenant's OpenID provider registration
// (validation-service.md §5).
type Provider struct {
	Tenant   string // the tenant's UUID, lower case
	Issuer   string
	ClientID string
	// ClientSecretRef names where the client secret is kept; resolving it
	// is the caller's job. Empty when the client has no secret.
	ClientSecretRef string
	// Audience is the aud bearer tokens must carry. Empty when the
	// registration leaves it to the OIDC layer (conventionally the client
	// ID).
	Audience string
	// RedirectBaseURL is the external base URL for this tenant's redirect
	// URI. Empty means the configured svc.dss.validator.base-url.
	RedirectBaseURL string
	// AccessTokens is how bearer tokens are told to be access tokens. It
	// is never zero in a Provider a lookup returns.
	AccessTokens AccessTokenRule
}

// An AccessTokenRule is how the verifier of bearer tokens tells a
// provider's access tokens from its ID tokens and other JWTs
// (docs/decisions/0022, point 7). The zero value is unset: no
// registration has it.
type AccessTokenRule uint8

const (
	// AccessTokensByClaims ("claims", the default registration): typ
	// at+jwt, or typ JWT or none without the claims only ID tokens carry.
	AccessTokensByClaims AccessTokenRule = iota + 1
	// AccessTokensATJWTOnly ("at+jwt"): typ at+jwt only.
	AccessTokensATJWTOnly
)

// String is the rule's name in docs/decisions/0022 (and in the control
// database's access_tokens column).
func (r AccessTokenRule) String() string {
	switch r {
	case AccessTokensByClaims:
		return "claims"
	case AccessTokensATJWTOnly:
		return "at+jwt"
	}
	return fmt.Sprintf("AccessTokenRule(%d)", uint8(r))
}

// A ClientKey is a signing-server caller's registered public key
// (signing-server.md §2 and §5).
type ClientKey struct {
	Tenant string // the tenant's UUID, lower case
	// Module is the UUID of the DSS module instance the key is registered
	// for; the caller must reject a request naming another module.
	Module    string
	Kid       string
	Algorithm string // JWS name: RS256 … PS512, ES256 … ES512
	// PublicKey is the key as registered: PEM ("-----BEGIN PUBLIC
	// KEY-----") or a JWK as JSON. It is not parsed by the lookup.
	PublicKey string
}

// A PartitionRegistration is a tenant's HSM partition as the control
// database registers it (signing-server.md §1): where the partition is and
// where its PIN is kept, not the PIN. The signer resolves it into a
// [Partition] per request.
type PartitionRegistration struct {
	Tenant string // the tenant's UUID, lower case
	Type   string // partition type, as provisioned
	// Library is the path of the PKCS#11 module to load.
	Library string
	// Host is the network address of the HSM; empty for a local library.
	Host string
	// Slot is the PKCS#11 slot ID; nil means the token is found by
	// TokenLabel. At least one of the two is set.
	Slot       *uint
	TokenLabel string
	User       string
	// PINRef names where the partition PIN is kept; resolving it, per
	// request, is the caller's job.
	PINRef string
}

// A TenantDirectory knows the enabled tenants and the OpenID provider each
// signs in with.
type TenantDirectory interface {
	// Provider returns the OpenID provider of an enabled tenant, or an
	// error wrapping ErrNotFound when the tenant is unknown, disabled or
	// has no provider. A registration the implementation cannot read
	// (such as an access-token rule it does not know) is an error that is
	// not ErrNotFound: never a default.
	Provider(ctx context.Context, tenant string) (Provider, error)
}

// TenantPolicies knows each tenant's default validation policy
// (docs/decisions/0042).
type TenantPolicies interface {
	// ValidationPolicy returns the name of an enabled tenant's default
	// validation policy, "" when it has none; an error wrapping
	// ErrNotFound for an unknown, disabled or malformed tenant. Any other
	// error is an infrastructure failure.
	ValidationPolicy(ctx context.Context, tenant string) (string, error)
}

// Licenses knows the tenants' feature licences ("dss.validator", "dss").
type Licenses interface {
	// HasFeature reports whether an enabled tenant holds the feature
	// licence at the instant at: a licence is valid from its start
	// (inclusive) until its end (exclusive), and an open side always
	// holds. It answers false without an error for an unknown, disabled
	// or malformed tenant; an error is an infrastructure failure.
	HasFeature(ctx context.Context, tenant, feature string, at time.Time) (bool, error)
}

// Permissions knows the tenants' permissions ("dss.sign"), which have no
// validity period.
type Permissions interface {
	// HasPermission reports whether an enabled tenant holds the
	// permission. It answers false without an error for an unknown,
	// disabled or malformed tenant; an error is an infrastructure failure.
	HasPermission(ctx context.Context, tenant, permission string) (bool, error)
}

// ClientKeys knows the public keys signing proxies registered, by tenant
// and kid (signing-server.md §2).
type ClientKeys interface {
	// ClientKey returns the enabled key registered as kid for an enabled
	// tenant, on an enabled module of that tenant; else an error wrapping
	// ErrNotFound. A key of another tenant with the same kid is not
	// found. The kid comes from an unverified token: an empty kid, or one
	// no key could be registered under, is not found. ClientKey does not
	// check the module a request names; the caller compares it with
	// ClientKey.Module.
	ClientKey(ctx context.Context, tenant, kid string) (ClientKey, error)
}

// Partitions knows the tenants' HSM partitions (signing-server.md §1):
// never the service's configuration.
type Partitions interface {
	// Partition returns the HSM partition of an enabled tenant, or an
	// error wrapping ErrNotFound when the tenant is unknown, disabled or
	// has none.
	Partition(ctx context.Context, tenant string) (PartitionRegistration, error)
}
