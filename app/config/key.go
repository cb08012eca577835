package config

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/svc-dss/dss/adapters/isoduration"
)

// A Key describes one setting: the dotted name used in the YAML file, the
// environment variable that overrides it, its default as written in
// configuration, and what it means. The environment names are not derived
// from the dotted names: they are copied from the specs, which are not
// consistent across the two programs (SVC_DSS_CONTROL_DB_POOL against
// SVC_DSS_CONTROL_DB_MAXIMUM_POOL_SIZE). Keys the specs give no variable for
// use the relaxed-binding form of the original deployment (dots to
// underscores, dashes dropped, upper case).
type Key struct {
	Name    string
	Env     string
	Default string
	Doc     string
}

// binding ties a Key to the field of C it sets.
type binding[C any] struct {
	Key
	set func(c *C, v string) error
}

// A KeyError reports a setting whose value cannot be used. Its message is
// one line naming the key, the environment variable and the value, so that
// an operator can find it whichever source it came from.
type KeyError struct {
	Key   string
	Env   string
	Value string
	Err   error
}

func (e *KeyError) Error() string {
	return fmt.Sprintf("config: %s (env %s) = %q: %v", e.Key, e.Env, e.Value, e.Err)
}

func (e *KeyError) Unwrap() error { return e.Err }

// The setters below parse one value into a field. Each returns a plain
// error; the loader wraps it into a KeyError naming the key.

func setString[C any](f func(*C) *string) func(*C, string) error {
	return func(c *C, v string) error { *f(c) = strings.TrimSpace(v); return nil }
}

func setBool[C any](f func(*C) *bool) func(*C, string) error {
	return func(c *C, v string) error {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("not a boolean (true or false)")
		}
		*f(c) = b
		return nil
	}
}

// setPort accepts 0, which asks the operating system for a free port, as
// the original deployment did; tests rely on it.
func setPort[C any](f func(*C) *int) func(*C, string) error {
	return func(c *C, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || n > 65535 {
			return fmt.Errorf("not a TCP port (0 to 65535)")
		}
		*f(c) = n
		return nil
	}
}

// setLoopbackAddress accepts host:port on a loopback address, where
// only this machine can reach what is served.
func setLoopbackAddress[C any](f func(*C) *string) func(*C, string) error {
	return func(c *C, v string) error {
		v = strings.TrimSpace(v)
		host, port, err := net.SplitHostPort(v)
		if err != nil {
			return fmt.Errorf("not a host:port address (127.0.0.1:8098)")
		}
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			return fmt.Errorf("not a loopback address (127.0.0.1 or ::1)")
		}
		if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
			return fmt.Errorf("not a TCP port (0 to 65535)")
		}
		*f(c) = v
		return nil
	}
}

func setPositive[C any](f func(*C) *int) func(*C, string) error {
	return func(c *C, v string) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return fmt.Errorf("not a whole number of at least 1")
		}
		*f(c) = n
		return nil
	}
}

func setInt64[C any](f func(*C) *int64) func(*C, string) error {
	return func(c *C, v string) error {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return fmt.Errorf("not a whole number of bytes")
		}
		*f(c) = n
		return nil
	}
}

func setDuration[C any](f func(*C) *time.Duration) func(*C, string) error {
	return func(c *C, v string) error {
		d, err := isoduration.Parse(strings.TrimSpace(v))
		if err != nil {
			return err
		}
		*f(c) = d
		return nil
	}
}

// setPositiveDuration is setDuration for a duration that must be longer
// than zero.
func setPositiveDuration[C any](f func(*C) *time.Duration) func(*C, string) error {
	return func(c *C, v string) error {
		d, err := isoduration.Parse(strings.TrimSpace(v))
		if err != nil {
			return err
		}
		if d <= 0 {
			return fmt.Errorf("must be longer than zero")
		}
		*f(c) = d
		return nil
	}
}

func setDataSize[C any](f func(*C) *int64) func(*C, string) error {
	return func(c *C, v string) error {
		n, err := ParseDataSize(v)
		if err != nil {
			return err
		}
		if n <= 0 {
			return fmt.Errorf("must be larger than zero")
		}
		*f(c) = n
		return nil
	}
}

// cronParser reads the six-field expressions of the spec (seconds first,
// "0 0 3 * * *") with the same parser gocron uses to run them, so that what
// passes here also schedules.
var cronParser = cron.NewParser(cron.Second | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

func setCron[C any](f func(*C) *string) func(*C, string) error {
	return func(c *C, v string) error {
		v = strings.TrimSpace(v)
		if !strings.HasPrefix(v, "@") && len(strings.Fields(v)) != 6 {
			return fmt.Errorf("a cron expression needs six fields (second minute hour day-of-month month day-of-week), got %d", len(strings.Fields(v)))
		}
		if _, err := cronParser.Parse(v); err != nil {
			return fmt.Errorf("invalid cron expression: %w", err)
		}
		*f(c) = v
		return nil
	}
}

// setURL accepts an absolute http or https URL, or nothing when optional.
func setURL[C any](f func(*C) *string, optional bool) func(*C, string) error {
	return func(c *C, v string) error {
		v = strings.TrimSpace(v)
		if v == "" && optional {
			*f(c) = ""
			return nil
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("not an absolute http or https URL")
		}
		*f(c) = strings.TrimRight(v, "/")
		return nil
	}
}

// setHosts reads a comma-separated list of host names, as an environment
// variable carries it (a YAML list arrives joined the same way). Names are
// compared case-insensitively, so they are stored in lower case.
func setHosts[C any](f func(*C) *[]string) func(*C, string) error {
	return func(c *C, v string) error {
		var hosts []string
		for h := range strings.SplitSeq(v, ",") {
			h = strings.ToLower(strings.TrimSpace(h))
			if h == "" {
				continue
			}
			if strings.ContainsAny(h, "/:@ ") && net.ParseIP(h) == nil {
				return fmt.Errorf("%q is not a host name (no scheme, port or path)", h)
			}
			hosts = append(hosts, strings.TrimSuffix(h, "."))
		}
		*f(c) = hosts
		return nil
	}
}

// setLocation resolves a classpath:, file: or plain location against the
// resource root, which must be bound earlier in the table.
func setLocation[C any](f func(*C) *Location, root func(*C) string, allowClasspath bool) func(*C, string) error {
	return func(c *C, v string) error {
		v = strings.TrimSpace(v)
		if !allowClasspath && strings.HasPrefix(v, "classpath:") {
			return fmt.Errorf("classpath: locations are not accepted here; use file: or an absolute path")
		}
		loc, err := ResolveLocation(v, root(c))
		if err != nil {
			return err
		}
		*f(c) = loc
		return nil
	}
}

// setOptionalLocation is setLocation for a setting that may stay unset.
func setOptionalLocation[C any](f func(*C) *Location, root func(*C) string) func(*C, string) error {
	return func(c *C, v string) error {
		if strings.TrimSpace(v) == "" {
			*f(c) = Location{}
			return nil
		}
		return setLocation(f, root, true)(c, v)
	}
}

// setDatabaseURL accepts the PostgreSQL URL forms an operator may bring:
// postgres://, postgresql:// and the JDBC form of the original deployment
// (jdbc:postgresql://). Blank means no control database.
func setDatabaseURL[C any](f func(*C) *string) func(*C, string) error {
	return func(c *C, v string) error {
		v = strings.TrimSpace(v)
		if v == "" {
			*f(c) = ""
			return nil
		}
		u, err := url.Parse(strings.TrimPrefix(v, "jdbc:"))
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			return fmt.Errorf("not a PostgreSQL URL (postgres://host:5432/db or jdbc:postgresql://host:5432/db)")
		}
		*f(c) = v
		return nil
	}
}

func setKeystoreType[C any](f func(*C) *string) func(*C, string) error {
	return func(c *C, v string) error {
		t := strings.ToUpper(strings.TrimSpace(v))
		if t != "PKCS12" {
			return fmt.Errorf("unknown keystore type: only PKCS12 is supported")
		}
		*f(c) = t
		return nil
	}
}
