package config_test

import (
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/config"
)

func TestValidatorDefaults(t *testing.T) {
	is := is.New(t)
	c, err := config.LoadValidator(nil, nil, io.Discard)
	is.NoErr(err)
	want := config.Validator{
		Port:            8090,
		BaseURL:         "http://localhost:8090",
		TLCacheDir:      "./target/tl-cache",
		RefreshCron:     "0 0 3 * * *",
		RefreshJitter:   10 * time.Minute,
		PermitAll:       false,
		MaxRequestBytes: 41943040,
		Multipart:       config.Multipart{MaxFileSize: 20 << 20, MaxRequestSize: 40 << 20},
		EU: config.EU{
			LOTLURL:        "https://ec.europa.eu/tools/lotl/eu-lotl.xml",
			OJKeystore:     config.Location{Raw: "classpath:tl/eu-oj-keystore.p12", Classpath: true, Path: "tl/eu-oj-keystore.p12"},
			OJKeystoreType: "PKCS12",
		},
		Swiss: config.Swiss{
			Enabled:      true,
			TLURL:        "https://trustedlist.tsl-switzerland.ch/tsl-ch.xml",
			TLSignerCert: config.Location{Raw: "classpath:certs/CH-TL-cert-DER.cer", Classpath: true, Path: "certs/CH-TL-cert-DER.cer"},
		},
		Trust: config.Trust{
			WarnAfter:           7 * 24 * time.Hour,
			FailAfter:           30 * 24 * time.Hour,
			FailureThreshold:    3,
			StartupCatchUp:      true,
			StartupCatchUpDelay: 30 * time.Second,
			StartupCatchUpAfter: 24 * time.Hour,
			WithdrawalWindow:    30 * 24 * time.Hour,
		},
		PrivateCA:     config.PrivateCA{Directory: config.Location{Raw: "file:/etc/svc/trust-anchors", Path: "/etc/svc/trust-anchors"}},
		Egress:        config.Egress{DenyPrivateNetworks: true},
		ControlDB:     config.ControlDB{Schema: "public", MaximumPoolSize: 4},
		Session:       config.Session{IdleTimeout: 30 * time.Minute, AbsoluteTimeout: 8 * time.Hour, MaxSessions: 2000},
		Redis:         config.Redis{KeyPrefix: "svc-dss:"},
		UploadTimeout: 5 * time.Minute,
		DevPKIAddress: "127.0.0.1:8098",
	}
	is.Equal(c, want)
}

func TestSignerDefaults(t *testing.T) {
	is := is.New(t)
	c, err := config.LoadSigner(nil, nil, io.Discard)
	is.NoErr(err)
	is.Equal(c, config.Signer{
		Port:            8080,
		MaxRequestBytes: 16777216,
		SigningTimeout:  30 * time.Second,
		ControlDB:       config.ControlDB{MaximumPoolSize: 4},
		Redis:           config.Redis{KeyPrefix: "svc-dss:"},
	})
}

// override is one environment variable with a non-default value and the
// field it must reach.
type override[C any] struct {
	env, value string
	got        func(C) any
	want       any
}

func TestValidatorEnvOverrides(t *testing.T) {
	tests := []override[config.Validator]{
		{"SVC_DSS_RESOURCE_ROOT", "/opt/res", func(c config.Validator) any { return c.EU.OJKeystore.Path }, "/opt/res/tl/eu-oj-keystore.p12"},
		{"SVC_DSS_VALIDATOR_PORT", "9191", func(c config.Validator) any { return c.Port }, 9191},
		{"SVC_DSS_VALIDATOR_BASE_URL", "https://validate.example.ch/", func(c config.Validator) any { return c.BaseURL }, "https://validate.example.ch"},
		{"SVC_DSS_TL_CACHE", "/var/cache/tl", func(c config.Validator) any { return c.TLCacheDir }, "/var/cache/tl"},
		{"SVC_DSS_VALIDATOR_REFRESH_CRON", "0 30 2 * * MON-FRI", func(c config.Validator) any { return c.RefreshCron }, "0 30 2 * * MON-FRI"},
		{"SVC_DSS_VALIDATOR_REFRESH_JITTER", "PT0S", func(c config.Validator) any { return c.RefreshJitter }, time.Duration(0)},
		{"SVC_DSS_VALIDATOR_PERMIT_ALL", "true", func(c config.Validator) any { return c.PermitAll }, true},
		{"SVC_DSS_VALIDATOR_METRICS_TOKEN", "0123456789abcdef0123456789abcdef", func(c config.Validator) any { return c.Metrics.Token }, "0123456789abcdef0123456789abcdef"},
		{"SVC_DSS_VALIDATOR_MAXREQUESTBYTES", "1048576", func(c config.Validator) any { return c.MaxRequestBytes }, int64(1 << 20)},
		{"FW_SERVLET_MULTIPART_MAXFILESIZE", "5MB", func(c config.Validator) any { return c.Multipart.MaxFileSize }, int64(5 << 20)},
		{"FW_SERVLET_MULTIPART_MAXREQUESTSIZE", "1GB", func(c config.Validator) any { return c.Multipart.MaxRequestSize }, int64(1 << 30)},
		{"SVC_DSS_VALIDATOR_UPLOAD_TIMEOUT", "PT10M", func(c config.Validator) any { return c.UploadTimeout }, 10 * time.Minute},
		{"SVC_DSS_VALIDATOR_POLICY_DEFAULT", "/etc/svc-dss/policies/strict.yaml", func(c config.Validator) any { return c.Policy.Default }, "/etc/svc-dss/policies/strict.yaml"},
		{"SVC_DSS_VALIDATOR_POLICY_DIRECTORY", "/etc/svc-dss/policies", func(c config.Validator) any { return c.Policy.Directory }, "/etc/svc-dss/policies"},
		{"SVC_DSS_VALIDATOR_LOTL_URL", "http://127.0.0.1:9/lotl.xml", func(c config.Validator) any { return c.EU.LOTLURL }, "http://127.0.0.1:9/lotl.xml"},
		{"SVC_DSS_VALIDATOR_OJ_KEYSTORE", "file:///etc/svc/oj.p12", func(c config.Validator) any { return c.EU.OJKeystore }, config.Location{Raw: "file:///etc/svc/oj.p12", Path: "/etc/svc/oj.p12"}},
		{"SVC_DSS_VALIDATOR_OJ_KEYSTORE_TYPE", "pkcs12", func(c config.Validator) any { return c.EU.OJKeystoreType }, "PKCS12"},
		{"SVC_DSS_VALIDATOR_OJ_KEYSTORE_PASSWORD", "s3cret", func(c config.Validator) any { return c.EU.OJKeystorePassword }, "s3cret"},
		{"SVC_DSS_VALIDATOR_SWISS_ENABLED", "false", func(c config.Validator) any { return c.Swiss.Enabled }, false},
		{"SVC_DSS_VALIDATOR_CH_TL_URL", "https://tl.example.ch/ch.xml", func(c config.Validator) any { return c.Swiss.TLURL }, "https://tl.example.ch/ch.xml"},
		{"SVC_DSS_VALIDATOR_CH_TL_SIGNER_CERT", "/etc/svc/ch.pem", func(c config.Validator) any { return c.Swiss.TLSignerCert }, config.Location{Raw: "/etc/svc/ch.pem", Path: "/etc/svc/ch.pem"}},
		{"SVC_DSS_VALIDATOR_TRUST_WARN_AFTER", "P2D", func(c config.Validator) any { return c.Trust.WarnAfter }, 48 * time.Hour},
		{"SVC_DSS_VALIDATOR_TRUST_FAIL_AFTER", "P60DT12H", func(c config.Validator) any { return c.Trust.FailAfter }, 60*24*time.Hour + 12*time.Hour},
		{"SVC_DSS_VALIDATOR_TRUST_FAILURE_THRESHOLD", "5", func(c config.Validator) any { return c.Trust.FailureThreshold }, 5},
		{"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP", "false", func(c config.Validator) any { return c.Trust.StartupCatchUp }, false},
		{"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY", "PT1M30S", func(c config.Validator) any { return c.Trust.StartupCatchUpDelay }, 90 * time.Second},
		{"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_AFTER", "PT6H", func(c config.Validator) any { return c.Trust.StartupCatchUpAfter }, 6 * time.Hour},
		{"SVC_DSS_VALIDATOR_TRUST_HEALTH_DOWN_WHEN_NEVER_LOADED", "true", func(c config.Validator) any { return c.Trust.HealthDownWhenNeverLoaded }, true},
		{"SVC_DSS_VALIDATOR_TRUST_WITHDRAWAL_WINDOW", "P14D", func(c config.Validator) any { return c.Trust.WithdrawalWindow }, 14 * 24 * time.Hour},
		{"SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS", "[::1]:0", func(c config.Validator) any { return c.DevPKIAddress }, "[::1]:0"},
		{"SVC_DSS_VALIDATOR_PRIVATE_CA_ENABLED", "true", func(c config.Validator) any { return c.PrivateCA.Enabled }, true},
		{"SVC_DSS_VALIDATOR_PRIVATE_CA_DIR", "/srv/anchors", func(c config.Validator) any { return c.PrivateCA.Directory.Path }, "/srv/anchors"},
		{"SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE", "false", func(c config.Validator) any { return c.Egress.DenyPrivateNetworks }, false},
		{"SVC_DSS_VALIDATOR_EGRESS_ALLOWED_HOSTS", "OCSP.Example.ch, crl.example.de,", func(c config.Validator) any { return c.Egress.AllowedHosts }, []string{"ocsp.example.ch", "crl.example.de"}},
		{"SVC_DSS_VALIDATOR_EGRESS_PROXY_HOST", "proxy.internal", func(c config.Validator) any { return c.Egress.ProxyHost }, "proxy.internal"},
		{"SVC_DSS_VALIDATOR_EGRESS_PROXY_PORT", "3128", func(c config.Validator) any { return c.Egress.ProxyPort }, 3128},
		{"SVC_DSS_VALIDATOR_SESSION_IDLE_TIMEOUT", "PT15M", func(c config.Validator) any { return c.Session.IdleTimeout }, 15 * time.Minute},
		{"SVC_DSS_VALIDATOR_SESSION_ABSOLUTE_TIMEOUT", "PT12H", func(c config.Validator) any { return c.Session.AbsoluteTimeout }, 12 * time.Hour},
		{"SVC_DSS_VALIDATOR_SESSION_MAX_SESSIONS", "500", func(c config.Validator) any { return c.Session.MaxSessions }, 500},
		{"SVC_DSS_VALIDATOR_SESSION_LOGIN_KEY", "0123456789abcdef0123456789abcdef", func(c config.Validator) any { return c.Session.LoginKey }, "0123456789abcdef0123456789abcdef"},
		{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_FILE", "file:///etc/svc/seal.p12", func(c config.Validator) any { return c.ReportSeal.PKCS12File }, config.Location{Raw: "file:///etc/svc/seal.p12", Path: "/etc/svc/seal.p12"}},
		{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_PASSWORD", "seal-pw", func(c config.Validator) any { return c.ReportSeal.PKCS12Password }, "seal-pw"},
		{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_MODULE", "/usr/lib/softhsm/libsofthsm2.so", func(c config.Validator) any { return c.ReportSeal.PKCS11Module }, "/usr/lib/softhsm/libsofthsm2.so"},
		{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_TOKEN", "seal-token", func(c config.Validator) any { return c.ReportSeal.PKCS11Token }, "seal-token"},
		{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_PIN", "1234", func(c config.Validator) any { return c.ReportSeal.PKCS11PIN }, "1234"},
		{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL", "seal", func(c config.Validator) any { return c.ReportSeal.PKCS11KeyLabel }, "seal"},
		{"SVC_DSS_VALIDATOR_REPORT_SEAL_CERTIFICATE", "/etc/svc/seal.pem", func(c config.Validator) any { return c.ReportSeal.Certificate.Path }, "/etc/svc/seal.pem"},
		{"SVC_DSS_VALIDATOR_REPORT_SEAL_TSA_URL", "https://tsa.example.ch/tsa/", func(c config.Validator) any { return c.ReportSeal.TSAURL }, "https://tsa.example.ch/tsa"},
		{"SVC_DSS_CONTROL_DB_URL", "jdbc:postgresql://db:5432/control", func(c config.Validator) any { return c.ControlDB.URL }, "jdbc:postgresql://db:5432/control"},
		{"SVC_DSS_CONTROL_DB_USERNAME", "reader", func(c config.Validator) any { return c.ControlDB.Username }, "reader"},
		{"SVC_DSS_CONTROL_DB_PASSWORD", "pw", func(c config.Validator) any { return c.ControlDB.Password }, "pw"},
		{"SVC_DSS_CONTROL_DB_SCHEMA", "control", func(c config.Validator) any { return c.ControlDB.Schema }, "control"},
		{"SVC_DSS_CONTROL_DB_POOL", "9", func(c config.Validator) any { return c.ControlDB.MaximumPoolSize }, 9},
		{"SVC_DSS_REDIS_URL", "rediss://:pw@redis.internal:6380/2", func(c config.Validator) any { return c.Redis.URL }, "rediss://:pw@redis.internal:6380/2"},
		{"SVC_DSS_REDIS_PASSWORD", "s3cret", func(c config.Validator) any { return c.Redis.Password }, "s3cret"},
		{"SVC_DSS_REDIS_CA_FILE", "/etc/svc/redis-ca.pem", func(c config.Validator) any { return c.Redis.CAFile }, config.Location{Raw: "/etc/svc/redis-ca.pem", Path: "/etc/svc/redis-ca.pem"}},
		{"SVC_DSS_REDIS_KEY_PREFIX", "staging:", func(c config.Validator) any { return c.Redis.KeyPrefix }, "staging:"},
	}
	// A proxy host needs a port and vice versa is harmless; give every run
	// the companions its override needs to pass Validate. A PKCS#11 seal
	// needs its module, token, key label and certificate together.
	pkcs11Seal := []string{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_MODULE=/m.so", "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_TOKEN=t",
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL=k", "SVC_DSS_VALIDATOR_REPORT_SEAL_CERTIFICATE=/c.pem"}
	companions := map[string][]string{
		"SVC_DSS_VALIDATOR_EGRESS_PROXY_HOST":            {"SVC_DSS_VALIDATOR_EGRESS_PROXY_PORT=3128"},
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_PASSWORD":  {"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_FILE=/etc/svc/seal.p12"},
		"SVC_DSS_VALIDATOR_REPORT_SEAL_TSA_URL":          {"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_FILE=/etc/svc/seal.p12"},
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_MODULE":    pkcs11Seal,
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_TOKEN":     pkcs11Seal,
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_PIN":       pkcs11Seal,
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL": pkcs11Seal,
		"SVC_DSS_VALIDATOR_REPORT_SEAL_CERTIFICATE":      pkcs11Seal,
	}
	maps.Copy(companions, redisCompanions)
	checkCoverage(t, config.ValidatorKeys(), tests)
	for _, tt := range tests {
		t.Run(tt.env, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			// The override last: it wins over a companion of the same name.
			env := append(slices.Clone(companions[tt.env]), tt.env+"="+tt.value)
			c, err := config.LoadValidator(nil, env, io.Discard)
			is.NoErr(err)
			is.Equal(tt.got(c), tt.want)
		})
	}
}

func TestSignerEnvOverrides(t *testing.T) {
	tests := []override[config.Signer]{
		{"SVC_DSS_RESOURCE_ROOT", "/opt/res", func(c config.Signer) any { return c.ResourceRoot }, "/opt/res"},
		{"SERVER_PORT", "18080", func(c config.Signer) any { return c.Port }, 18080},
		{"SVC_DSS_SECURITY_PERMIT_ALL", "TRUE", func(c config.Signer) any { return c.PermitAll }, true},
		{"SVC_DSS_SIGNER_METRICS_TOKEN", "0123456789abcdef0123456789abcdef", func(c config.Signer) any { return c.Metrics.Token }, "0123456789abcdef0123456789abcdef"},
		{"SVC_DSS_SECURITY_MAX_REQUEST_BYTES", "1024", func(c config.Signer) any { return c.MaxRequestBytes }, int64(1024)},
		{"SVC_DSS_SIGNING_TIMEOUT_SECONDS", "5", func(c config.Signer) any { return c.SigningTimeout }, 5 * time.Second},
		{"SVC_DSS_CONTROL_DB_URL", "postgres://db/control?sslmode=disable", func(c config.Signer) any { return c.ControlDB.URL }, "postgres://db/control?sslmode=disable"},
		{"SVC_DSS_CONTROL_DB_USERNAME", "signer", func(c config.Signer) any { return c.ControlDB.Username }, "signer"},
		{"SVC_DSS_CONTROL_DB_PASSWORD", "pw", func(c config.Signer) any { return c.ControlDB.Password }, "pw"},
		{"SVC_DSS_CONTROL_DB_SCHEMA", "ctl", func(c config.Signer) any { return c.ControlDB.Schema }, "ctl"},
		{"SVC_DSS_CONTROL_DB_MAXIMUM_POOL_SIZE", "2", func(c config.Signer) any { return c.ControlDB.MaximumPoolSize }, 2},
		{"FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWKSETURI", "https://idp.example/jwks", func(c config.Signer) any { return c.JWT.JWKSetURI }, "https://idp.example/jwks"},
		{"FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_PUBLICKEYLOCATION", "classpath:keys/proxy.pem", func(c config.Signer) any { return c.JWT.PublicKeyLocation.Path }, "keys/proxy.pem"},
		{"FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_ISSUERURI", "https://idp.example", func(c config.Signer) any { return c.JWT.IssuerURI }, "https://idp.example"},
		{"SVC_DSS_REDIS_URL", "rediss://:pw@redis.internal:6380/2", func(c config.Signer) any { return c.Redis.URL }, "rediss://:pw@redis.internal:6380/2"},
		{"SVC_DSS_REDIS_PASSWORD", "s3cret", func(c config.Signer) any { return c.Redis.Password }, "s3cret"},
		{"SVC_DSS_REDIS_CA_FILE", "/etc/svc/redis-ca.pem", func(c config.Signer) any { return c.Redis.CAFile }, config.Location{Raw: "/etc/svc/redis-ca.pem", Path: "/etc/svc/redis-ca.pem"}},
		{"SVC_DSS_REDIS_KEY_PREFIX", "staging:", func(c config.Signer) any { return c.Redis.KeyPrefix }, "staging:"},
	}
	checkCoverage(t, config.SignerKeys(), tests)
	for _, tt := range tests {
		t.Run(tt.env, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			env := append([]string{tt.env + "=" + tt.value}, redisCompanions[tt.env]...)
			c, err := config.LoadSigner(nil, env, io.Discard)
			is.NoErr(err)
			is.Equal(tt.got(c), tt.want)
		})
	}
}

// redisCompanions are the settings a Redis override needs to pass
// Validate: a password needs a URL, a CA file a rediss:// one.
var redisCompanions = map[string][]string{
	"SVC_DSS_REDIS_PASSWORD": {"SVC_DSS_REDIS_URL=redis://redis.internal"},
	"SVC_DSS_REDIS_CA_FILE":  {"SVC_DSS_REDIS_URL=rediss://redis.internal"},
}

// checkCoverage fails when a key has no override test, so that a key added
// to the table cannot go untested.
func checkCoverage[C any](t *testing.T, keys []config.Key, tests []override[C]) {
	t.Helper()
	tested := map[string]bool{}
	for _, tt := range tests {
		tested[tt.env] = true
	}
	for _, k := range keys {
		if !tested[k.Env] {
			t.Errorf("key %s (env %s) has no override test", k.Name, k.Env)
		}
	}
}

func TestSignerZeroMaxRequestBytesFallsBack(t *testing.T) {
	for _, v := range []string{"0", "-5"} {
		c, err := config.LoadSigner(nil, []string{"SVC_DSS_SECURITY_MAX_REQUEST_BYTES=" + v}, io.Discard)
		is.New(t).NoErr(err)
		is.New(t).Equal(c.MaxRequestBytes, int64(16<<20))
	}
}

func TestBaseURLFollowsPort(t *testing.T) {
	is := is.New(t)
	c, err := config.LoadValidator(nil, []string{"SVC_DSS_VALIDATOR_PORT=9000"}, io.Discard)
	is.NoErr(err)
	is.Equal(c.BaseURL, "http://localhost:9000")
}

func TestDevFlagWins(t *testing.T) {
	is := is.New(t)
	env := []string{"SVC_DSS_VALIDATOR_PERMIT_ALL=false", "SVC_DSS_CONTROL_DB_URL=postgres://db/x"}
	c, err := config.LoadValidator([]string{"--dev"}, env, io.Discard)
	is.NoErr(err)
	is.True(c.Dev)
	is.True(c.PermitAll)
	is.Equal(c.ControlDB.URL, "")

	c, err = config.LoadValidator(nil, env, io.Discard)
	is.NoErr(err)
	is.True(!c.PermitAll) // without --dev the configured values stand
}

func TestYAMLFileLayering(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "validator.yaml")
	is.NoErr(os.WriteFile(path, []byte(`
server:
  port: 9300
svc.dss.validator.trust.warn-after: P3D
svc:
  dss:
    validator:
      egress:
        allowed-hosts: [ocsp.example.ch, CRL.example.de]
      swiss:
        enabled: false
`), 0o600))
	c, err := config.LoadValidator([]string{"--config", path}, []string{"SVC_DSS_VALIDATOR_PORT=9400"}, io.Discard)
	is.NoErr(err)
	is.Equal(c.Port, 9400)                    // environment beats the file
	is.Equal(c.Trust.WarnAfter, 72*time.Hour) // flat dotted key
	is.Equal(c.Swiss.Enabled, false)          // nested key
	is.Equal(c.Egress.AllowedHosts, []string{"ocsp.example.ch", "crl.example.de"})
	is.Equal(c.Trust.FailAfter, 30*24*time.Hour) // default kept
}

func TestInvalidConfiguration(t *testing.T) {
	dir := t.TempDir()
	unknown := filepath.Join(dir, "unknown.yaml")
	if err := os.WriteFile(unknown, []byte("svc.dss.validator.warn-after: P1D\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("server: [port\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"bad duration", nil, []string{"SVC_DSS_VALIDATOR_TRUST_WARN_AFTER=7 days"},
			`config: svc.dss.validator.trust.warn-after (env SVC_DSS_VALIDATOR_TRUST_WARN_AFTER) = "7 days": invalid ISO-8601 duration "7 days": must start with P (e.g. P7D, PT30S)`},
		{"duration in months", nil, []string{"SVC_DSS_VALIDATOR_TRUST_FAIL_AFTER=P1M"},
			`config: svc.dss.validator.trust.fail-after (env SVC_DSS_VALIDATOR_TRUST_FAIL_AFTER) = "P1M": invalid ISO-8601 duration "P1M": years and months have no fixed length; use days (P30D)`},
		{"bad port", nil, []string{"SVC_DSS_VALIDATOR_PORT=70000"},
			`config: server.port (env SVC_DSS_VALIDATOR_PORT) = "70000": not a TCP port (0 to 65535)`},
		{"port not a number", nil, []string{"SVC_DSS_VALIDATOR_PORT=http"},
			`config: server.port (env SVC_DSS_VALIDATOR_PORT) = "http": not a TCP port (0 to 65535)`},
		{"five-field cron", nil, []string{"SVC_DSS_VALIDATOR_REFRESH_CRON=0 3 * * *"},
			`config: svc.dss.validator.refresh-cron (env SVC_DSS_VALIDATOR_REFRESH_CRON) = "0 3 * * *": a cron expression needs six fields (second minute hour day-of-month month day-of-week), got 5`},
		{"jitter of a day", nil, []string{"SVC_DSS_VALIDATOR_REFRESH_JITTER=P1D"},
			`config: svc.dss.validator.refresh-jitter (env SVC_DSS_VALIDATOR_REFRESH_JITTER) = "P1D": must be shorter than a day (P1D): the lists are refreshed daily`},
		{"jitter not ISO-8601", nil, []string{"SVC_DSS_VALIDATOR_REFRESH_JITTER=10m"},
			`config: svc.dss.validator.refresh-jitter (env SVC_DSS_VALIDATOR_REFRESH_JITTER) = "10m": invalid ISO-8601 duration "10m": must start with P (e.g. P7D, PT30S)`},
		{"bad cron field", nil, []string{"SVC_DSS_VALIDATOR_REFRESH_CRON=0 0 25 * * *"},
			`config: svc.dss.validator.refresh-cron (env SVC_DSS_VALIDATOR_REFRESH_CRON) = "0 0 25 * * *": invalid cron expression: end of range (25) above maximum (23): 25`},
		{"unknown keystore type", nil, []string{"SVC_DSS_VALIDATOR_OJ_KEYSTORE_TYPE=JKS"},
			`config: svc.dss.validator.eu.oj-keystore-type (env SVC_DSS_VALIDATOR_OJ_KEYSTORE_TYPE) = "JKS": unknown keystore type: only PKCS12 is supported`},
		{"classpath private CA directory", nil, []string{"SVC_DSS_VALIDATOR_PRIVATE_CA_DIR=classpath:anchors"},
			`config: svc.dss.validator.private-ca.directory (env SVC_DSS_VALIDATOR_PRIVATE_CA_DIR) = "classpath:anchors": classpath: locations are not accepted here; use file: or an absolute path`},
		{"bad boolean", nil, []string{"SVC_DSS_VALIDATOR_SWISS_ENABLED=yes please"},
			`config: svc.dss.validator.swiss.enabled (env SVC_DSS_VALIDATOR_SWISS_ENABLED) = "yes please": not a boolean (true or false)`},
		{"bad data size", nil, []string{"FW_SERVLET_MULTIPART_MAXFILESIZE=20 megs"},
			`config: fw.servlet.multipart.max-file-size (env FW_SERVLET_MULTIPART_MAXFILESIZE) = "20 megs": invalid data size "20 megs": unknown unit " MEGS" (B, KB, MB, GB, TB)`},
		{"zero failure threshold", nil, []string{"SVC_DSS_VALIDATOR_TRUST_FAILURE_THRESHOLD=0"},
			`config: svc.dss.validator.trust.failure-threshold (env SVC_DSS_VALIDATOR_TRUST_FAILURE_THRESHOLD) = "0": not a whole number of at least 1`},
		{"development PKI not on loopback", nil, []string{"SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS=0.0.0.0:8098"},
			`config: svc.dss.validator.dev.pki-address (env SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS) = "0.0.0.0:8098": not a loopback address (127.0.0.1 or ::1)`},
		{"development PKI without port", nil, []string{"SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS=127.0.0.1"},
			`config: svc.dss.validator.dev.pki-address (env SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS) = "127.0.0.1": not a host:port address (127.0.0.1:8098)`},
		{"relative LOTL URL", nil, []string{"SVC_DSS_VALIDATOR_LOTL_URL=lotl.xml"},
			`config: svc.dss.validator.eu.lotl-url (env SVC_DSS_VALIDATOR_LOTL_URL) = "lotl.xml": not an absolute http or https URL`},
		{"database URL of another kind, password hidden", nil, []string{"SVC_DSS_CONTROL_DB_URL=mysql://u:hunter2@db/x"},
			`config: svc.dss.control-db.url (env SVC_DSS_CONTROL_DB_URL) = "mysql://u:%2A%2A%2A%2A%2A%2A@db/x": not a PostgreSQL URL (postgres://host:5432/db or jdbc:postgresql://host:5432/db)`},
		{"allowed host with scheme", nil, []string{"SVC_DSS_VALIDATOR_EGRESS_ALLOWED_HOSTS=https://ocsp.example.ch"},
			`config: svc.dss.validator.egress.allowed-hosts (env SVC_DSS_VALIDATOR_EGRESS_ALLOWED_HOSTS) = "https://ocsp.example.ch": "https://ocsp.example.ch" is not a host name (no scheme, port or path)`},
		{"fail-after not after warn-after", nil, []string{"SVC_DSS_VALIDATOR_TRUST_WARN_AFTER=P30D", "SVC_DSS_VALIDATOR_TRUST_FAIL_AFTER=P7D"},
			`config: svc.dss.validator.trust.fail-after (env SVC_DSS_VALIDATOR_TRUST_FAIL_AFTER) = "P7D": must be longer than svc.dss.validator.trust.warn-after (P30D)`},
		{"zero idle timeout", nil, []string{"SVC_DSS_VALIDATOR_SESSION_IDLE_TIMEOUT=PT0S"},
			`config: svc.dss.validator.session.idle-timeout (env SVC_DSS_VALIDATOR_SESSION_IDLE_TIMEOUT) = "PT0S": must be longer than zero`},
		{"login key too short, not shown", nil, []string{"SVC_DSS_VALIDATOR_SESSION_LOGIN_KEY=short-secret"},
			`config: svc.dss.validator.session.login-key (env SVC_DSS_VALIDATOR_SESSION_LOGIN_KEY) = "******": shorter than 32 characters, it can be guessed: use a random one (openssl rand -hex 32)`},
		{"login key with a space, not shown", nil, []string{"SVC_DSS_VALIDATOR_SESSION_LOGIN_KEY=0123456789abcdef 0123456789abcdef"},
			`config: svc.dss.validator.session.login-key (env SVC_DSS_VALIDATOR_SESSION_LOGIN_KEY) = "******": holds a character other than visible ASCII: use a random one (openssl rand -hex 32)`},
		{"session limit zero", nil, []string{"SVC_DSS_VALIDATOR_SESSION_MAX_SESSIONS=0"},
			`config: svc.dss.validator.session.max-sessions (env SVC_DSS_VALIDATOR_SESSION_MAX_SESSIONS) = "0": not a whole number of at least 1`},
		{"absolute timeout shorter than idle", nil, []string{"SVC_DSS_VALIDATOR_SESSION_IDLE_TIMEOUT=PT2H", "SVC_DSS_VALIDATOR_SESSION_ABSOLUTE_TIMEOUT=PT1H"},
			`config: svc.dss.validator.session.absolute-timeout (env SVC_DSS_VALIDATOR_SESSION_ABSOLUTE_TIMEOUT) = "PT1H": must be at least svc.dss.validator.session.idle-timeout (PT2H)`},
		{"proxy host without port", nil, []string{"SVC_DSS_VALIDATOR_EGRESS_PROXY_HOST=proxy"},
			`config: svc.dss.validator.egress.proxy-port (env SVC_DSS_VALIDATOR_EGRESS_PROXY_PORT) = "0": a proxy port is required when svc.dss.validator.egress.proxy-host is set (proxy)`},
		{"Redis URL of another kind, password hidden", nil, []string{"SVC_DSS_REDIS_URL=http://:hunter2@redis:6379"},
			`config: svc.dss.redis.url (env SVC_DSS_REDIS_URL) = "http://:%2A%2A%2A%2A%2A%2A@redis:6379": not a Redis URL (redis://host:6379/0, or rediss://host:6380/0 for TLS)`},
		{"Redis URL without host", nil, []string{"SVC_DSS_REDIS_URL=redis:///0"},
			`config: svc.dss.redis.url (env SVC_DSS_REDIS_URL) = "redis:///0": not a Redis URL (redis://host:6379/0, or rediss://host:6380/0 for TLS)`},
		{"Redis URL that does not parse, password hidden", nil, []string{"SVC_DSS_REDIS_URL=redis://:hunter2@redis:port"},
			`config: svc.dss.redis.url (env SVC_DSS_REDIS_URL) = "redis://******@redis:port": not a Redis URL (redis://host:6379/0, or rediss://host:6380/0 for TLS)`},
		{"Redis database by name", nil, []string{"SVC_DSS_REDIS_URL=redis://redis:6379/sessions"},
			`config: svc.dss.redis.url (env SVC_DSS_REDIS_URL) = "redis://redis:6379/sessions": the path names the database by its number (redis://host:6379/0), not "sessions"`},
		{"Redis password without URL", nil, []string{"SVC_DSS_REDIS_PASSWORD=hunter2"},
			`config: svc.dss.redis.password (env SVC_DSS_REDIS_PASSWORD) = "******": set, but svc.dss.redis.url is empty: no Redis is used`},
		{"Redis CA file without TLS", nil, []string{"SVC_DSS_REDIS_URL=redis://redis:6379", "SVC_DSS_REDIS_CA_FILE=/etc/ca.pem"},
			`config: svc.dss.redis.ca-file (env SVC_DSS_REDIS_CA_FILE) = "/etc/ca.pem": a CA file needs TLS: svc.dss.redis.url must be a rediss:// URL`},
		{"seal TSA without a seal key", nil, []string{"SVC_DSS_VALIDATOR_REPORT_SEAL_TSA_URL=https://tsa.example.ch/tsa"},
			`config: svc.dss.validator.report-seal.tsa-url (env SVC_DSS_VALIDATOR_REPORT_SEAL_TSA_URL) = "https://tsa.example.ch/tsa": a time-stamping unit serves the report seal, and no seal key is configured: set svc.dss.validator.report-seal.pkcs12-file, or svc.dss.validator.report-seal.pkcs11-module and pkcs11-key-label`},
		{"seal password without a seal key", nil, []string{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_PASSWORD=secret"},
			`config: svc.dss.validator.report-seal.pkcs12-password (env SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_PASSWORD) = "(hidden)": a password without its file: set svc.dss.validator.report-seal.pkcs12-file`},
		{"seal of two keys", nil, []string{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_FILE=/etc/seal.p12", "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_MODULE=/usr/lib/softhsm/libsofthsm2.so",
			"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_TOKEN=t", "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL=k", "SVC_DSS_VALIDATOR_REPORT_SEAL_CERTIFICATE=/c.pem"},
			`config: svc.dss.validator.report-seal.pkcs11-module (env SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_MODULE) = "/usr/lib/softhsm/libsofthsm2.so": the seal is one key: a PKCS#12 file (svc.dss.validator.report-seal.pkcs12-file) or a PKCS#11 key, not both`},
		{"PKCS#11 seal without its key label", nil, []string{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_MODULE=/usr/lib/softhsm/libsofthsm2.so",
			"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_TOKEN=t", "SVC_DSS_VALIDATOR_REPORT_SEAL_CERTIFICATE=/c.pem"},
			`config: svc.dss.validator.report-seal.pkcs11-key-label (env SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL) = "": required with svc.dss.validator.report-seal.pkcs11-module (/usr/lib/softhsm/libsofthsm2.so)`},
		{"PKCS#11 key label without a module", nil, []string{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL=seal"},
			`config: svc.dss.validator.report-seal.pkcs11-key-label (env SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL) = "seal": a PKCS#11 seal setting without svc.dss.validator.report-seal.pkcs11-module`},
		{"seal TSA not a URL", nil, []string{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_FILE=/etc/seal.p12", "SVC_DSS_VALIDATOR_REPORT_SEAL_TSA_URL=tsa.example.ch"},
			`config: svc.dss.validator.report-seal.tsa-url (env SVC_DSS_VALIDATOR_REPORT_SEAL_TSA_URL) = "tsa.example.ch": not an absolute http or https URL`},
		{"unknown key in file", []string{"--config", unknown}, nil,
			`config: ` + unknown + `: unknown key "svc.dss.validator.warn-after"`},
		{"unparsable file", []string{"--config", broken}, nil,
			`config: reading ` + broken + `: yaml: line 1: did not find expected ',' or ']'`},
		{"missing file", []string{"--config", filepath.Join(dir, "nope.yaml")}, nil,
			`config: reading ` + filepath.Join(dir, "nope.yaml") + `: open ` + filepath.Join(dir, "nope.yaml") + `: no such file or directory`},
		{"stray argument", []string{"serve"}, nil, `config: unexpected argument "serve"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			_, err := config.LoadValidator(tt.args, tt.env, io.Discard)
			is.True(err != nil)
			is.Equal(err.Error(), tt.want)
		})
	}
}

func TestInvalidSignerConfiguration(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"bad port", []string{"SERVER_PORT=-1"}, `config: server.port (env SERVER_PORT) = "-1": not a TCP port (0 to 65535)`},
		{"zero timeout", []string{"SVC_DSS_SIGNING_TIMEOUT_SECONDS=0"}, `config: svc.dss.signing.timeout-seconds (env SVC_DSS_SIGNING_TIMEOUT_SECONDS) = "0": not a whole number of at least 1`},
		{"max bytes not a number", []string{"SVC_DSS_SECURITY_MAX_REQUEST_BYTES=16MB"}, `config: svc.dss.security.max-request-bytes (env SVC_DSS_SECURITY_MAX_REQUEST_BYTES) = "16MB": not a whole number of bytes`},
		{"two key sources", []string{"FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWKSETURI=https://idp/jwks", "FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_ISSUERURI=https://idp"},
			`config: fw.security.oauth2.resourceserver.jwt: supply exactly one JWT key source, got 2 (jwk-set-uri, issuer-uri)`},
		{"Redis URL of another kind, password hidden", []string{"SVC_DSS_REDIS_URL=http://:hunter2@redis:6379"},
			`config: svc.dss.redis.url (env SVC_DSS_REDIS_URL) = "http://:%2A%2A%2A%2A%2A%2A@redis:6379": not a Redis URL (redis://host:6379/0, or rediss://host:6380/0 for TLS)`},
		{"Redis URL without host", []string{"SVC_DSS_REDIS_URL=redis:///0"},
			`config: svc.dss.redis.url (env SVC_DSS_REDIS_URL) = "redis:///0": not a Redis URL (redis://host:6379/0, or rediss://host:6380/0 for TLS)`},
		{"Redis URL that does not parse, password hidden", []string{"SVC_DSS_REDIS_URL=redis://:hunter2@redis:port"},
			`config: svc.dss.redis.url (env SVC_DSS_REDIS_URL) = "redis://******@redis:port": not a Redis URL (redis://host:6379/0, or rediss://host:6380/0 for TLS)`},
		{"Redis database by name", []string{"SVC_DSS_REDIS_URL=redis://redis:6379/sessions"},
			`config: svc.dss.redis.url (env SVC_DSS_REDIS_URL) = "redis://redis:6379/sessions": the path names the database by its number (redis://host:6379/0), not "sessions"`},
		{"Redis password without URL", []string{"SVC_DSS_REDIS_PASSWORD=hunter2"},
			`config: svc.dss.redis.password (env SVC_DSS_REDIS_PASSWORD) = "******": set, but svc.dss.redis.url is empty: no Redis is used`},
		{"Redis CA file without TLS", []string{"SVC_DSS_REDIS_URL=redis://redis:6379", "SVC_DSS_REDIS_CA_FILE=/etc/ca.pem"},
			`config: svc.dss.redis.ca-file (env SVC_DSS_REDIS_CA_FILE) = "/etc/ca.pem": a CA file needs TLS: svc.dss.redis.url must be a rediss:// URL`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			_, err := config.LoadSigner(nil, tt.env, io.Discard)
			is.True(err != nil)
			is.Equal(err.Error(), tt.want)
		})
	}
}

func TestKeyErrorUnwraps(t *testing.T) {
	is := is.New(t)
	_, err := config.LoadValidator(nil, []string{"SVC_DSS_VALIDATOR_PORT=x"}, io.Discard)
	var ke *config.KeyError
	is.True(errors.As(err, &ke))
	is.Equal(ke.Key, "server.port")
	is.Equal(ke.Env, "SVC_DSS_VALIDATOR_PORT")
}

func TestHelp(t *testing.T) {
	_, err := config.LoadValidator([]string{"-h"}, nil, io.Discard)
	is.New(t).True(errors.Is(err, config.ErrHelp))
}

func TestKeysAreUnique(t *testing.T) {
	for _, keys := range [][]config.Key{config.ValidatorKeys(), config.SignerKeys()} {
		names, envs := map[string]bool{}, map[string]bool{}
		for _, k := range keys {
			if names[k.Name] || envs[k.Env] {
				t.Errorf("duplicate key %s / %s", k.Name, k.Env)
			}
			names[k.Name], envs[k.Env] = true, true
		}
	}
}
