package config

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/knadh/koanf/parsers/yaml"
)

// LoadValidator reads the validation service's configuration from, in
// rising precedence, the built-in defaults, the YAML file named by
// --config, and the environment (environ, as os.Environ returns it). The
// flag --dev turns on development mode: permit-all and no control
// database, whatever the other sources say. It returns flag.ErrHelp for
// -h, after printing usage to out.
func LoadValidator(args, environ []string, out io.Writer) (Validator, error) {
	fs := flag.NewFlagSet("validator", flag.ContinueOnError)
	fs.SetOutput(out)
	path := fs.String("config", "", "YAML configuration `file`")
	dev := fs.Bool("dev", false, "development mode: permit-all, no control database (never in production)")
	if err := fs.Parse(args); err != nil {
		return Validator{}, err
	}
	if fs.NArg() > 0 {
		return Validator{}, fmt.Errorf("config: unexpected argument %q", fs.Arg(0))
	}
	c := Validator{Dev: *dev}
	if err := load(validatorKeys(), &c, *path, environ); err != nil {
		return Validator{}, err
	}
	c.finish()
	return c, c.Validate()
}

// LoadSigner reads the signing server's configuration in the same order as
// LoadValidator. It has no --dev flag: the signer's development switch is
// svc.dss.security.permit-all.
func LoadSigner(args, environ []string, out io.Writer) (Signer, error) {
	fs := flag.NewFlagSet("signer", flag.ContinueOnError)
	fs.SetOutput(out)
	path := fs.String("config", "", "YAML configuration `file`")
	if err := fs.Parse(args); err != nil {
		return Signer{}, err
	}
	if fs.NArg() > 0 {
		return Signer{}, fmt.Errorf("config: unexpected argument %q", fs.Arg(0))
	}
	var c Signer
	if err := load(signerKeys(), &c, *path, environ); err != nil {
		return Signer{}, err
	}
	c.finish()
	return c, c.Validate()
}

// load layers the three sources, defaults, file and environment, each
// key taking the value of the last source that sets it, and then binds
// every key of the table, in table order, into c. The first unusable value
// stops it: one clear line beats a list an operator has to untangle.
//
// The layers are flat maps of the table's dotted keys: every key is a
// leaf, the file is flattened (and checked against the table) before it
// is laid over the defaults, and only the table's variables are read from
// the environment. koanf's layering did the same through nested maps and
// deep copies, for most of the configuration's share of a command's
// start-up (docs/decisions/0044); its YAML parser still reads the file.
func load[C any](table []binding[C], c *C, path string, environ []string) error {
	values := make(map[string]any, len(table))
	byEnv := make(map[string]string, len(table))
	for _, b := range table {
		values[b.Name] = b.Default
		byEnv[b.Env] = b.Name
	}
	if path != "" {
		raw, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("config: reading %s: %w", path, err)
		}
		tree, err := yaml.Parser().Unmarshal(raw)
		if err != nil {
			return fmt.Errorf("config: reading %s: %w", path, err)
		}
		// The file may write a key nested, flat ("a.b.c: x") or both ways
		// at once; flatten first so that no spelling silently wins.
		flat := map[string]any{}
		if err := flatten(tree, "", flat); err != nil {
			return fmt.Errorf("config: %s: %w", path, err)
		}
		for key := range flat {
			if _, ok := values[key]; !ok {
				return fmt.Errorf("config: %s: unknown key %q", path, key)
			}
		}
		maps.Copy(values, flat)
	}
	// Only the variables of the table are read: the environment holds
	// much else, and a prefix rule would bind names the spec never gave.
	// A variable given twice counts with its last value, as the process
	// sees it.
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if key, known := byEnv[name]; ok && known {
			values[key] = value
		}
	}
	for _, b := range table {
		v := stringValue(values[b.Name])
		if err := b.set(c, v); err != nil {
			return &KeyError{Key: b.Name, Env: b.Env, Value: redact(b.Name, v), Err: err}
		}
	}
	return nil
}

// flatten writes every leaf of tree into out under its dotted path.
func flatten(tree map[string]any, prefix string, out map[string]any) error {
	for k, v := range tree {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		if sub, ok := v.(map[string]any); ok {
			if err := flatten(sub, key, out); err != nil {
				return err
			}
			continue
		}
		if _, dup := out[key]; dup {
			return fmt.Errorf("key %q is set twice", key)
		}
		out[key] = v
	}
	return nil
}

// stringValue turns what YAML produced back into the text an environment
// variable would carry, so one setter serves both sources.
func stringValue(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []any:
		parts := make([]string, len(v))
		for i, p := range v {
			parts[i] = stringValue(p)
		}
		return strings.Join(parts, ",")
	default:
		return fmt.Sprint(v)
	}
}

// redact keeps secrets out of error messages and logs.
func redact(key, v string) string {
	if (strings.HasSuffix(key, "password") || strings.HasSuffix(key, "token") || strings.HasSuffix(key, "-key")) && v != "" {
		return "******"
	}
	u, err := url.Parse(strings.TrimPrefix(v, "jdbc:"))
	if err != nil {
		// A URL that does not parse may still carry a password between
		// its scheme and host.
		scheme, rest, ok := strings.Cut(v, "://")
		if at := strings.LastIndex(rest, "@"); ok && at >= 0 {
			return scheme + "://******" + rest[at:]
		}
		return v
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "******")
			return strings.Replace(v, strings.TrimPrefix(v, "jdbc:"), u.String(), 1)
		}
	}
	return v
}

func keysOf[C any](table []binding[C]) []Key {
	keys := make([]Key, len(table))
	for i, b := range table {
		keys[i] = b.Key
	}
	return keys
}

func keyError[C any](table []binding[C], key, value string, err error) error {
	i := slices.IndexFunc(table, func(b binding[C]) bool { return b.Name == key })
	if i < 0 {
		panic("config: no key " + key) // a typo in this package, caught by its tests
	}
	return &KeyError{Key: key, Env: table[i].Env, Value: value, Err: err}
}

// ErrHelp is returned when -h or --help was asked for.
var ErrHelp = flag.ErrHelp
