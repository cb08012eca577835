package postgres

// CacheLen returns how many provider and licence answers c holds.
func CacheLen(c *CachedControl) (providers, features int) {
	return c.providers.len(), c.features.len()
}
