package config

import (
	"fmt"
	"strings"
)

// Metrics guards GET /actuator/prometheus (docs/decisions/0039).
type Metrics struct {
	// Token is the bearer token a scraper sends; empty means no scraper
	// is let in, unless authentication is off (permit-all: development).
	Token string
}

// MinMetricsTokenLength is the shortest metrics token accepted: 32
// characters, as `openssl rand -hex 16` prints, cannot be guessed.
const MinMetricsTokenLength = 32

// setToken accepts a blank token (none) or one of at least
// MinMetricsTokenLength visible ASCII characters: a bearer token travels
// as one word of the Authorization header.
func setToken[C any](f func(*C) *string) func(*C, string) error {
	return func(c *C, v string) error {
		v = strings.TrimSpace(v)
		for _, r := range v {
			if r < '!' || r > '~' {
				return fmt.Errorf("holds a character other than visible ASCII (a space, a control character, a letter outside ASCII): the Authorization header carries the token as one word")
			}
		}
		if v != "" && len(v) < MinMetricsTokenLength {
			return fmt.Errorf("shorter than %d characters, it can be guessed: use a random one (openssl rand -hex 32)", MinMetricsTokenLength)
		}
		*f(c) = v
		return nil
	}
}

// MinSecretLength is the shortest secret a key is derived from: 32
// characters, as `openssl rand -hex 16` prints.
const MinSecretLength = 32

// setSecret accepts a blank secret (none) or one of at least
// MinSecretLength visible ASCII characters.
func setSecret[C any](f func(*C) *string) func(*C, string) error {
	return func(c *C, v string) error {
		v = strings.TrimSpace(v)
		for _, r := range v {
			if r < '!' || r > '~' {
				return fmt.Errorf("holds a character other than visible ASCII: use a random one (openssl rand -hex 32)")
			}
		}
		if v != "" && len(v) < MinSecretLength {
			return fmt.Errorf("shorter than %d characters, it can be guessed: use a random one (openssl rand -hex 32)", MinSecretLength)
		}
		*f(c) = v
		return nil
	}
}
