package app

import (
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/svc-dss/dss/adapters/postgres"
)

// controlDB is the control database db as the control-data ports: the
// one place the use cases' control data meets adapters/postgres. The
// lookups made on every request, providers and licences, go through a
// bounded cache (postgres.DefaultCacheTTL: a revoked licence or a changed
// provider takes effect within it) whose ages clock measures; client keys,
// permissions and partitions are read afresh each time, so that a revoked
// key stops working at once.
func controlDB(db *sqlx.DB, clock func() time.Time) *postgres.CachedControl {
	return postgres.NewCachedControl(postgres.NewControl(db), postgres.DefaultCacheTTL, postgres.DefaultCacheEntries, clock)
}
