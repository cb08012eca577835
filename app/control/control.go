package control

import (
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/app/config"
)

// Open opens the control database c locates, or returns nil, nil when c
// names none (a blank URL).
func Open(c config.ControlDB) (*sqlx.DB, error) { return OpenTimed(c, nil) }

// OpenTimed is Open telling onQuery, when not nil, the duration and error
// of each query (postgres.Options.OnQuery).
func OpenTimed(c config.ControlDB, onQuery func(took time.Duration, err error)) (*sqlx.DB, error) {
	if c.URL == "" {
		return nil, nil
	}
	return postgres.Open(postgres.Options{URL: c.URL, Username: c.Username, Password: c.Password, Schema: c.Schema, MaxConns: c.MaximumPoolSize, OnQuery: onQuery})
}

// Cached is the control database db as the control-data ports: the one
// place the use cases' control data meets adapters/postgres. The lookups
// made on every request, providers and licences, go through a bounded
// cache (postgres.DefaultCacheTTL: a revoked licence or a changed provider
// takes effect within it) whose ages clock measures; client keys,
// permissions and partitions are read afresh each time, so that a revoked
// key stops working at once.
func Cached(db *sqlx.DB, clock func() time.Time) *postgres.CachedControl {
	return postgres.NewCachedControl(postgres.NewControl(db), postgres.DefaultCacheTTL, postgres.DefaultCacheEntries, clock)
}

// BearerToken reads "Bearer <token>" (RFC 6750, 2.1; the scheme is
// case-insensitive).
func BearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != "" && !strings.ContainsAny(token, " \t")
}
