package config

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Signer is the configuration of the remote signing server
// (signing-server.md, section 8).
type Signer struct {
	Port      int
	PermitAll bool
	// MaxRequestBytes caps request bodies under /api/. Zero or less falls
	// back to 16 MiB, as the spec says.
	MaxRequestBytes int64
	// SigningTimeout bounds one signing operation on the partition.
	SigningTimeout time.Duration
	ControlDB      ControlDB
	JWT            JWTKeySource
	Redis          Redis
	Metrics        Metrics
	ResourceRoot   string
}

// JWTKeySource is where the default-deny filter finds the keys of
// client-signed JWTs on paths that are neither public nor /sign-ska. At
// most one is set.
type JWTKeySource struct {
	JWKSetURI         string
	PublicKeyLocation Location
	IssuerURI         string
}

// Configured reports whether any key source is set.
func (s JWTKeySource) Configured() bool {
	return s.JWKSetURI != "" || s.PublicKeyLocation.Raw != "" || s.IssuerURI != ""
}

// DefaultSignerMaxRequestBytes is the spec's cap for /api/ bodies (16 MiB).
const DefaultSignerMaxRequestBytes = 16 << 20

var signerKeys = sync.OnceValue(func() []binding[Signer] {
	return append([]binding[Signer]{
		{Key{"svc.dss.resource-root", "SVC_DSS_RESOURCE_ROOT", "", "directory that classpath: locations resolve against; empty: the working directory"},
			setString(func(c *Signer) *string { return &c.ResourceRoot })},
		{Key{"server.port", "SERVER_PORT", "8080", "HTTP port (0: any free port)"},
			setPort(func(c *Signer) *int { return &c.Port })},
		{Key{"svc.dss.security.permit-all", "SVC_DSS_SECURITY_PERMIT_ALL", "false", "development only: no resource-server filter (sign-ska still checks its JWT)"},
			setBool(func(c *Signer) *bool { return &c.PermitAll })},
		{Key{"svc.dss.signer.metrics.token", "SVC_DSS_SIGNER_METRICS_TOKEN", "", "bearer token of GET /actuator/prometheus (at least 32 visible ASCII characters); empty: every scrape refused, unless permit-all (development)"},
			setToken(func(c *Signer) *string { return &c.Metrics.Token })},
		{Key{"svc.dss.security.max-request-bytes", "SVC_DSS_SECURITY_MAX_REQUEST_BYTES", "16777216", "largest body under /api/ in bytes; zero or less: 16 MiB"},
			setInt64(func(c *Signer) *int64 { return &c.MaxRequestBytes })},
		{Key{"svc.dss.signing.timeout-seconds", "SVC_DSS_SIGNING_TIMEOUT_SECONDS", "30", "longest wait in seconds for one signing operation"},
			func(c *Signer, v string) error {
				var n int
				if err := setPositive(func(*Signer) *int { return &n })(c, v); err != nil {
					return err
				}
				c.SigningTimeout = time.Duration(n) * time.Second
				return nil
			}},
		{Key{"svc.dss.control-db.url", "SVC_DSS_CONTROL_DB_URL", "", "read-only PostgreSQL URL; unset: /sign-ska answers 503"},
			setDatabaseURL(func(c *Signer) *string { return &c.ControlDB.URL })},
		{Key{"svc.dss.control-db.username", "SVC_DSS_CONTROL_DB_USERNAME", "", "user"},
			setString(func(c *Signer) *string { return &c.ControlDB.Username })},
		{Key{"svc.dss.control-db.password", "SVC_DSS_CONTROL_DB_PASSWORD", "", "password"},
			setString(func(c *Signer) *string { return &c.ControlDB.Password })},
		{Key{"svc.dss.control-db.schema", "SVC_DSS_CONTROL_DB_SCHEMA", "", "schema; blank: the server's search path"},
			setString(func(c *Signer) *string { return &c.ControlDB.Schema })},
		{Key{"svc.dss.control-db.maximum-pool-size", "SVC_DSS_CONTROL_DB_MAXIMUM_POOL_SIZE", "4", "connection pool size"},
			setPositive(func(c *Signer) *int { return &c.ControlDB.MaximumPoolSize })},
		{Key{"fw.security.oauth2.resourceserver.jwt.jwk-set-uri", "FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWKSETURI", "", "JWKS endpoint (RSA/EC keys, rotation by kid)"},
			setURL(func(c *Signer) *string { return &c.JWT.JWKSetURI }, true)},
		{Key{"fw.security.oauth2.resourceserver.jwt.public-key-location", "FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_PUBLICKEYLOCATION", "", "single RSA public-key file (classpath:, file: or path)"},
			setOptionalLocation(func(c *Signer) *Location { return &c.JWT.PublicKeyLocation }, func(c *Signer) string { return c.ResourceRoot })},
		{Key{"fw.security.oauth2.resourceserver.jwt.issuer-uri", "FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_ISSUERURI", "", "OIDC issuer; its discovery document names the JWKS"},
			setURL(func(c *Signer) *string { return &c.JWT.IssuerURI }, true)},
	}, redisKeys(func(c *Signer) *Redis { return &c.Redis }, func(c *Signer) string { return c.ResourceRoot }, "the used sign-ska token IDs (jti): with several replicas a token replayed to another is refused only through it")...)
})

// SignerKeys returns the signing server's settings, in the order the
// configuration reference lists them.
func SignerKeys() []Key { return keysOf(signerKeys()) }

func (c *Signer) finish() {
	if c.MaxRequestBytes <= 0 {
		c.MaxRequestBytes = DefaultSignerMaxRequestBytes
	}
}

// Validate checks the rules that span several settings. It does not change c.
func (c *Signer) Validate() error {
	var set []string
	if c.JWT.JWKSetURI != "" {
		set = append(set, "jwk-set-uri")
	}
	if c.JWT.PublicKeyLocation.Raw != "" {
		set = append(set, "public-key-location")
	}
	if c.JWT.IssuerURI != "" {
		set = append(set, "issuer-uri")
	}
	if len(set) > 1 {
		return errors.New("config: fw.security.oauth2.resourceserver.jwt: supply exactly one JWT key source, got " +
			fmt.Sprint(len(set)) + " (" + strings.Join(set, ", ") + ")")
	}
	return validateRedis(signerKeys(), c.Redis)
}
