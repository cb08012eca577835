package config

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Redis locates the Redis that the replicas of a program share
// (docs/decisions/0040): the validator keeps its UI sessions there, the
// signer the used sign-ska token IDs. A blank URL means none: the state
// stays in the process, which is right for one instance only.
type Redis struct {
	// URL is redis://[[user]:password@]host[:port][/db], or rediss://
	// for TLS.
	URL string
	// Password, when set, replaces the URL's.
	Password string
	// CAFile, when set, holds the certificate authorities of a rediss://
	// server, instead of the system's.
	CAFile Location
	// KeyPrefix starts every key written, so that several deployments
	// (or the two programs) can share one Redis.
	KeyPrefix string
}

// DefaultRedisKeyPrefix starts the keys of both programs; each adds its
// own part (adapters/replay, adapters/session).
const DefaultRedisKeyPrefix = "svc-dss:"

// redisKeys are the settings of Redis, for a program that keeps what in
// it.
func redisKeys[C any](f func(*C) *Redis, root func(*C) string, what string) []binding[C] {
	return []binding[C]{
		{Key{"svc.dss.redis.url", "SVC_DSS_REDIS_URL", "", "Redis shared by the replicas for " + what + ": redis://host:6379/0, or rediss:// for TLS; a user and password may be in the URL; empty: kept in this process (one instance only)"},
			setRedisURL(func(c *C) *string { return &f(c).URL })},
		{Key{"svc.dss.redis.password", "SVC_DSS_REDIS_PASSWORD", "", "Redis password, instead of the URL's; never logged"},
			setString(func(c *C) *string { return &f(c).Password })},
		{Key{"svc.dss.redis.ca-file", "SVC_DSS_REDIS_CA_FILE", "", "PEM file (file: or path) of the certificate authorities of a rediss:// server; empty: the system's"},
			setOptionalLocation(func(c *C) *Location { return &f(c).CAFile }, root)},
		{Key{"svc.dss.redis.key-prefix", "SVC_DSS_REDIS_KEY_PREFIX", DefaultRedisKeyPrefix, "prefix of every Redis key written, so that deployments can share one Redis"},
			setString(func(c *C) *string { return &f(c).KeyPrefix })},
	}
}

// setRedisURL accepts a blank URL (none) or a redis:// or rediss:// URL
// with a host and at most a database number for path.
func setRedisURL[C any](f func(*C) *string) func(*C, string) error {
	return func(c *C, v string) error {
		v = strings.TrimSpace(v)
		if v == "" {
			*f(c) = ""
			return nil
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Hostname() == "" || u.Opaque != "" {
			return fmt.Errorf("not a Redis URL (redis://host:6379/0, or rediss://host:6380/0 for TLS)")
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				return fmt.Errorf("not a TCP port (1 to 65535): %q", p)
			}
		}
		if db := strings.Trim(u.Path, "/"); db != "" {
			if n, err := strconv.Atoi(db); err != nil || n < 0 {
				return fmt.Errorf("the path names the database by its number (redis://host:6379/0), not %q", db)
			}
		}
		*f(c) = v
		return nil
	}
}

// validateRedis checks the settings that depend on the URL.
func validateRedis[C any](table []binding[C], r Redis) error {
	switch {
	case r.URL == "" && r.Password != "":
		return keyError(table, "svc.dss.redis.password", "******", fmt.Errorf("set, but svc.dss.redis.url is empty: no Redis is used"))
	case r.CAFile.Raw != "" && !strings.HasPrefix(r.URL, "rediss://"):
		return keyError(table, "svc.dss.redis.ca-file", r.CAFile.Raw, fmt.Errorf("a CA file needs TLS: svc.dss.redis.url must be a rediss:// URL"))
	}
	return nil
}
