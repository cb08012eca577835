package config

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/svc-dss/dss/adapters/isoduration"
)

// Validator is the configuration of the validation service
// (validation-service.md, "Configuration reference" and section 8).
type Validator struct {
	Port int
	// BaseURL is the external base URL; per-tenant OIDC redirect URIs are
	// built from it. Unset, it is http://localhost:<Port>.
	BaseURL    string
	TLCacheDir string
	// RefreshCron is a six-field cron expression, seconds first.
	RefreshCron string
	// RefreshJitter bounds the random wait of each replica before a
	// refresh (docs/decisions/0040); zero means none.
	RefreshJitter time.Duration
	PermitAll     bool
	// MaxRequestBytes caps request bodies under /api/. Zero or less falls
	// back to the default, as the signer's cap does.
	MaxRequestBytes int64
	Multipart       Multipart
	// UploadTimeout is how long an authenticated upload (POST
	// /api/validate, POST /validate) may take to arrive, and it alone:
	// other requests get a short, fixed time (servers/validator).
	UploadTimeout time.Duration
	EU            EU
	Swiss         Swiss
	Trust         Trust
	PrivateCA     PrivateCA
	Egress        Egress
	ControlDB     ControlDB
	Session       Session
	Redis         Redis
	Metrics       Metrics
	ReportSeal    ReportSeal
	Policy        Policy
	// ResourceRoot is the directory classpath: locations resolve against;
	// empty means the working directory.
	ResourceRoot string
	// Dev is set by the --dev flag: permit-all, no control database.
	Dev bool
	// Offline is set by the validate command's --offline flag: no
	// network fetch for revocation data or issuers. Not a setting.
	Offline bool
	// DevPKIAddress is where development mode serves the fixture PKI
	// (OCSP, CRL, CA issuers, TSA). The certificates name it, so the
	// samples of fixtures/samples validate only against a PKI at the
	// address they were made for: the default.
	DevPKIAddress string
}

// Multipart holds the upload limits of the browser and API surfaces.
type Multipart struct {
	MaxFileSize    int64 // bytes, one file part
	MaxRequestSize int64 // bytes, the whole multipart request
}

// EU locates the List of Trusted Lists and the keystore of the certificates
// the Official Journal declares as its signers.
type EU struct {
	LOTLURL            string
	OJKeystore         Location
	OJKeystoreType     string
	OJKeystorePassword string
}

// Swiss locates the Swiss trusted list and the certificate that signs it.
type Swiss struct {
	Enabled      bool
	TLURL        string
	TLSignerCert Location
}

// Trust holds the freshness thresholds of section 3.
type Trust struct {
	WarnAfter                 time.Duration
	FailAfter                 time.Duration
	FailureThreshold          int
	StartupCatchUp            bool
	StartupCatchUpDelay       time.Duration
	StartupCatchUpAfter       time.Duration
	HealthDownWhenNeverLoaded bool
	WithdrawalWindow          time.Duration
}

// PrivateCA holds administrator-supplied trust anchors.
type PrivateCA struct {
	Enabled   bool
	Directory Location
}

// Egress controls outbound HTTP.
type Egress struct {
	DenyPrivateNetworks bool
	AllowedHosts        []string
	ProxyHost           string
	ProxyPort           int
}

// Policy locates the validation policies (docs/decisions/0042).
type Policy struct {
	// Default is the policy file of a validation that names none and
	// whose tenant has no default; empty: the embedded default policy.
	Default string
	// Directory holds the named policies, one YAML file each, named by
	// the documents; empty: none besides the default.
	Directory string
}

// ControlDB locates the read-only control database. A blank URL means none.
type ControlDB struct {
	URL             string
	Username        string
	Password        string
	Schema          string
	MaximumPoolSize int
}

// Session bounds the browser UI's sessions (docs/decisions/0024).
type Session struct {
	// IdleTimeout ends a session this long after its last request.
	IdleTimeout time.Duration
	// AbsoluteTimeout ends a session this long after its login, however
	// busy. At least IdleTimeout.
	AbsoluteTimeout time.Duration
	// MaxSessions bounds the signed-in sessions held in memory (a login
	// in progress is held by the browser, not here).
	MaxSessions int
	// LoginKey, when set, is the secret every replica derives the key
	// sealing logins in progress from; empty, each process has its own.
	LoginKey string
}

// ReportSeal is the key the validator seals its PDF reports and
// Signature Validation Tokens with (docs/decisions/0037): a PKCS#12 file,
// or a key in a PKCS#11 token with its certificate chain in a file.
// Without either the reports are unsealed and say so, and no token is
// issued.
type ReportSeal struct {
	// PKCS12File holds the seal's private key and certificate chain.
	PKCS12File     Location
	PKCS12Password string
	// PKCS11Module is the PKCS#11 library of the token that holds the
	// key labelled PKCS11KeyLabel, logged in to with PKCS11PIN; the
	// token is found by its label PKCS11Token.
	PKCS11Module   string
	PKCS11Token    string
	PKCS11PIN      string
	PKCS11KeyLabel string
	// Certificate is the file (PEM or DER) of the PKCS#11 key's
	// certificate, followed by its issuers.
	Certificate Location
	// TSAURL is an RFC 3161 time-stamping unit; set, the PDF reports are
	// PAdES-T rather than PAdES-B.
	TSAURL string
}

// Configured reports whether a seal key is configured.
func (r ReportSeal) Configured() bool { return r.PKCS12File.Raw != "" || r.PKCS11Module != "" }

// DefaultValidatorMaxRequestBytes is the spec's default API upload cap (40 MiB).
const DefaultValidatorMaxRequestBytes = 41943040

func root(c *Validator) string { return c.ResourceRoot }

// validatorKeys lists every setting of the validation service. Order
// matters in one place: the resource root comes first because the
// classpath locations after it resolve against it.
var validatorKeys = sync.OnceValue(func() []binding[Validator] {
	return append([]binding[Validator]{
		{Key{"svc.dss.resource-root", "SVC_DSS_RESOURCE_ROOT", "", "directory that classpath: locations resolve against; empty: the working directory"},
			setString(func(c *Validator) *string { return &c.ResourceRoot })},
		{Key{"server.port", "SVC_DSS_VALIDATOR_PORT", "8090", "HTTP port (0: any free port)"},
			setPort(func(c *Validator) *int { return &c.Port })},
		{Key{"svc.dss.validator.base-url", "SVC_DSS_VALIDATOR_BASE_URL", "", "external base URL; builds per-tenant OIDC redirect URIs; empty: http://localhost:<server.port>"},
			setURL(func(c *Validator) *string { return &c.BaseURL }, true)},
		{Key{"svc.dss.validator.tl-cache-dir", "SVC_DSS_TL_CACHE", "./target/tl-cache", "on-disk list cache"},
			setString(func(c *Validator) *string { return &c.TLCacheDir })},
		{Key{"svc.dss.validator.refresh-cron", "SVC_DSS_VALIDATOR_REFRESH_CRON", "0 0 3 * * *", "daily online refresh schedule (six fields, seconds first)"},
			setCron(func(c *Validator) *string { return &c.RefreshCron })},
		{Key{"svc.dss.validator.refresh-jitter", "SVC_DSS_VALIDATOR_REFRESH_JITTER", "PT10M", "each refresh (scheduled or catch-up) first waits a random time up to this long, so that replicas do not fetch the lists in the same second (ISO-8601 duration, shorter than a day); PT0S: none"},
			setDuration(func(c *Validator) *time.Duration { return &c.RefreshJitter })},
		{Key{"svc.dss.validator.security.permit-all", "SVC_DSS_VALIDATOR_PERMIT_ALL", "false", "development only: no authentication, no licensing"},
			setBool(func(c *Validator) *bool { return &c.PermitAll })},
		{Key{"svc.dss.validator.metrics.token", "SVC_DSS_VALIDATOR_METRICS_TOKEN", "", "bearer token of GET /actuator/prometheus (at least 32 visible ASCII characters); empty: every scrape refused, unless permit-all (development)"},
			setToken(func(c *Validator) *string { return &c.Metrics.Token })},
		{Key{"svc.dss.validator.max-request-bytes", "SVC_DSS_VALIDATOR_MAXREQUESTBYTES", "41943040", "largest request body under /api/ in bytes; zero or less: the default"},
			setInt64(func(c *Validator) *int64 { return &c.MaxRequestBytes })},
		{Key{"fw.servlet.multipart.max-file-size", "FW_SERVLET_MULTIPART_MAXFILESIZE", "20MB", "largest single file in a multipart upload"},
			setDataSize(func(c *Validator) *int64 { return &c.Multipart.MaxFileSize })},
		{Key{"fw.servlet.multipart.max-request-size", "FW_SERVLET_MULTIPART_MAXREQUESTSIZE", "40MB", "largest whole multipart request"},
			setDataSize(func(c *Validator) *int64 { return &c.Multipart.MaxRequestSize })},
		{Key{"svc.dss.validator.upload-timeout", "SVC_DSS_VALIDATOR_UPLOAD_TIMEOUT", "PT5M", "time an authenticated upload (API or browser) may take to arrive, from its authentication (ISO-8601 duration); 40MB in 5 minutes is about 1 Mbit/s; other requests get 20 seconds"},
			setPositiveDuration(func(c *Validator) *time.Duration { return &c.UploadTimeout })},
		{Key{"svc.dss.validator.eu.lotl-url", "SVC_DSS_VALIDATOR_LOTL_URL", "https://ec.europa.eu/tools/lotl/eu-lotl.xml", "EU List of Trusted Lists"},
			setURL(func(c *Validator) *string { return &c.EU.LOTLURL }, false)},
		{Key{"svc.dss.validator.eu.oj-keystore", "SVC_DSS_VALIDATOR_OJ_KEYSTORE", "classpath:tl/eu-oj-keystore.p12", "keystore (classpath:, file: or path) of the LOTL signer certificates"},
			setLocation(func(c *Validator) *Location { return &c.EU.OJKeystore }, root, true)},
		{Key{"svc.dss.validator.eu.oj-keystore-type", "SVC_DSS_VALIDATOR_OJ_KEYSTORE_TYPE", "PKCS12", "keystore type (PKCS12)"},
			setKeystoreType(func(c *Validator) *string { return &c.EU.OJKeystoreType })},
		{Key{"svc.dss.validator.eu.oj-keystore-password", "SVC_DSS_VALIDATOR_OJ_KEYSTORE_PASSWORD", "", "keystore password; may be blank"},
			setString(func(c *Validator) *string { return &c.EU.OJKeystorePassword })},
		{Key{"svc.dss.validator.swiss.enabled", "SVC_DSS_VALIDATOR_SWISS_ENABLED", "true", "load the Swiss list and do the Swiss assessment"},
			setBool(func(c *Validator) *bool { return &c.Swiss.Enabled })},
		{Key{"svc.dss.validator.swiss.ch-tl-url", "SVC_DSS_VALIDATOR_CH_TL_URL", "https://trustedlist.tsl-switzerland.ch/tsl-ch.xml", "Swiss trusted list"},
			setURL(func(c *Validator) *string { return &c.Swiss.TLURL }, false)},
		{Key{"svc.dss.validator.swiss.ch-tl-signer-cert", "SVC_DSS_VALIDATOR_CH_TL_SIGNER_CERT", "classpath:certs/CH-TL-cert-DER.cer", "DER or PEM certificate that signs the Swiss list"},
			setLocation(func(c *Validator) *Location { return &c.Swiss.TLSignerCert }, root, true)},
		{Key{"svc.dss.validator.trust.warn-after", "SVC_DSS_VALIDATOR_TRUST_WARN_AFTER", "P7D", "stale threshold (ISO-8601 duration)"},
			setDuration(func(c *Validator) *time.Duration { return &c.Trust.WarnAfter })},
		{Key{"svc.dss.validator.trust.fail-after", "SVC_DSS_VALIDATOR_TRUST_FAIL_AFTER", "P30D", "expired threshold (ISO-8601 duration)"},
			setDuration(func(c *Validator) *time.Duration { return &c.Trust.FailAfter })},
		{Key{"svc.dss.validator.trust.failure-threshold", "SVC_DSS_VALIDATOR_TRUST_FAILURE_THRESHOLD", "3", "consecutive failures before a list is reported failing"},
			setPositive(func(c *Validator) *int { return &c.Trust.FailureThreshold })},
		{Key{"svc.dss.validator.trust.startup-catch-up", "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP", "true", "one refresh after start-up when cached lists are behind"},
			setBool(func(c *Validator) *bool { return &c.Trust.StartupCatchUp })},
		{Key{"svc.dss.validator.trust.startup-catch-up-delay", "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY", "PT30S", "delay after readiness"},
			setDuration(func(c *Validator) *time.Duration { return &c.Trust.StartupCatchUpDelay })},
		{Key{"svc.dss.validator.trust.startup-catch-up-after", "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_AFTER", "P1D", "how far behind triggers the catch-up"},
			setDuration(func(c *Validator) *time.Duration { return &c.Trust.StartupCatchUpAfter })},
		{Key{"svc.dss.validator.trust.health-down-when-never-loaded", "SVC_DSS_VALIDATOR_TRUST_HEALTH_DOWN_WHEN_NEVER_LOADED", "false", "whether an empty trust store fails the health probe"},
			setBool(func(c *Validator) *bool { return &c.Trust.HealthDownWhenNeverLoaded })},
		{Key{"svc.dss.validator.trust.withdrawal-window", "SVC_DSS_VALIDATOR_TRUST_WITHDRAWAL_WINDOW", "P30D", "a qualified verdict on a list that is not current says services withdrawn within this window, or since the list's last confirmation when longer, are not reflected"},
			setDuration(func(c *Validator) *time.Duration { return &c.Trust.WithdrawalWindow })},
		{Key{"svc.dss.validator.dev.pki-address", "SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS", "127.0.0.1:8098", "development mode only: loopback host:port of the fixture PKI; the samples of fixtures/samples are made for the default, port 0 picks a free port"},
			setLoopbackAddress(func(c *Validator) *string { return &c.DevPKIAddress })},
		{Key{"svc.dss.validator.policy.default", "SVC_DSS_VALIDATOR_POLICY_DEFAULT", "", "validation policy file (YAML, docs/validation-policy.schema.json) of a validation that names none and whose tenant has no default; empty: the embedded default policy"},
			setString(func(c *Validator) *string { return &c.Policy.Default })},
		{Key{"svc.dss.validator.policy.directory", "SVC_DSS_VALIDATOR_POLICY_DIRECTORY", "", "directory of named validation policies (*.yaml, *.yml), each named by its document; a request's part policy and a tenant's default name one of them; empty: none"},
			setString(func(c *Validator) *string { return &c.Policy.Directory })},
		{Key{"svc.dss.validator.private-ca.enabled", "SVC_DSS_VALIDATOR_PRIVATE_CA_ENABLED", "false", "load administrator-supplied anchors"},
			setBool(func(c *Validator) *bool { return &c.PrivateCA.Enabled })},
		{Key{"svc.dss.validator.private-ca.directory", "SVC_DSS_VALIDATOR_PRIVATE_CA_DIR", "file:/etc/svc/trust-anchors", "file: URI or path of a directory of .pem, .crt, .cer, .der anchors (classpath: refused)"},
			setLocation(func(c *Validator) *Location { return &c.PrivateCA.Directory }, root, false)},
		{Key{"svc.dss.validator.egress.deny-private-networks", "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE", "true", "block AIA/OCSP/CRL fetches to private, loopback, link-local and similar addresses"},
			setBool(func(c *Validator) *bool { return &c.Egress.DenyPrivateNetworks })},
		{Key{"svc.dss.validator.egress.allowed-hosts", "SVC_DSS_VALIDATOR_EGRESS_ALLOWED_HOSTS", "", "comma-separated strict allow-list of host names for AIA/OCSP/CRL; empty: any public host"},
			setHosts(func(c *Validator) *[]string { return &c.Egress.AllowedHosts })},
		{Key{"svc.dss.validator.egress.proxy-host", "SVC_DSS_VALIDATOR_EGRESS_PROXY_HOST", "", "outbound proxy host for all egress; empty: direct"},
			setString(func(c *Validator) *string { return &c.Egress.ProxyHost })},
		{Key{"svc.dss.validator.egress.proxy-port", "SVC_DSS_VALIDATOR_EGRESS_PROXY_PORT", "0", "proxy port, used only with a proxy host"},
			setPort(func(c *Validator) *int { return &c.Egress.ProxyPort })},
		{Key{"svc.dss.validator.session.idle-timeout", "SVC_DSS_VALIDATOR_SESSION_IDLE_TIMEOUT", "PT30M", "browser UI: a session ends this long after its last request (ISO-8601 duration)"},
			setPositiveDuration(func(c *Validator) *time.Duration { return &c.Session.IdleTimeout })},
		{Key{"svc.dss.validator.session.absolute-timeout", "SVC_DSS_VALIDATOR_SESSION_ABSOLUTE_TIMEOUT", "PT8H", "browser UI: a session ends this long after its login, however busy; at least the idle timeout"},
			setPositiveDuration(func(c *Validator) *time.Duration { return &c.Session.AbsoluteTimeout })},
		{Key{"svc.dss.validator.session.max-sessions", "SVC_DSS_VALIDATOR_SESSION_MAX_SESSIONS", "2000", "browser UI: signed-in sessions held in memory, each with its last validation; when full, the one expiring soonest is dropped (logins in progress are held by the browser, sealed); with svc.dss.redis.url, Redis's maxmemory bounds them instead"},
			setPositive(func(c *Validator) *int { return &c.Session.MaxSessions })},
		{Key{"svc.dss.validator.session.login-key", "SVC_DSS_VALIDATOR_SESSION_LOGIN_KEY", "", "browser UI: secret (at least 32 visible ASCII characters) the replicas derive the key sealing logins in progress from, so that a sign-in started on one completes on another; empty: a random key per process (one instance, or sticky sessions); never logged"},
			setSecret(func(c *Validator) *string { return &c.Session.LoginKey })},
		{Key{"svc.dss.validator.report-seal.pkcs12-file", "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_FILE", "", "PKCS#12 file (classpath:, file: or path) of the key and chain that seal the PDF reports (PAdES) and Signature Validation Tokens; empty: reports are unsealed and say so, no tokens"},
			setOptionalLocation(func(c *Validator) *Location { return &c.ReportSeal.PKCS12File }, root)},
		{Key{"svc.dss.validator.report-seal.pkcs12-password", "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_PASSWORD", "", "password of the seal's PKCS#12 file"},
			setString(func(c *Validator) *string { return &c.ReportSeal.PKCS12Password })},
		{Key{"svc.dss.validator.report-seal.pkcs11-module", "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_MODULE", "", "PKCS#11 library of the token that holds the seal key, instead of a PKCS#12 file"},
			setString(func(c *Validator) *string { return &c.ReportSeal.PKCS11Module })},
		{Key{"svc.dss.validator.report-seal.pkcs11-token", "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_TOKEN", "", "label of the token that holds the seal key"},
			setString(func(c *Validator) *string { return &c.ReportSeal.PKCS11Token })},
		{Key{"svc.dss.validator.report-seal.pkcs11-pin", "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_PIN", "", "user PIN of the seal key's token"},
			setString(func(c *Validator) *string { return &c.ReportSeal.PKCS11PIN })},
		{Key{"svc.dss.validator.report-seal.pkcs11-key-label", "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL", "", "CKA_LABEL of the seal key in the token"},
			setString(func(c *Validator) *string { return &c.ReportSeal.PKCS11KeyLabel })},
		{Key{"svc.dss.validator.report-seal.certificate", "SVC_DSS_VALIDATOR_REPORT_SEAL_CERTIFICATE", "", "PEM or DER file (classpath:, file: or path) of the PKCS#11 seal key's certificate, then its issuers"},
			setOptionalLocation(func(c *Validator) *Location { return &c.ReportSeal.Certificate }, root)},
		{Key{"svc.dss.validator.report-seal.tsa-url", "SVC_DSS_VALIDATOR_REPORT_SEAL_TSA_URL", "", "RFC 3161 time-stamping unit of the seal: sealed reports are PAdES-T; empty: PAdES-B"},
			setURL(func(c *Validator) *string { return &c.ReportSeal.TSAURL }, true)},
		{Key{"svc.dss.control-db.url", "SVC_DSS_CONTROL_DB_URL", "", "read-only PostgreSQL URL; blank: no database (development with permit-all)"},
			setDatabaseURL(func(c *Validator) *string { return &c.ControlDB.URL })},
		{Key{"svc.dss.control-db.username", "SVC_DSS_CONTROL_DB_USERNAME", "", "user (read-only recommended)"},
			setString(func(c *Validator) *string { return &c.ControlDB.Username })},
		{Key{"svc.dss.control-db.password", "SVC_DSS_CONTROL_DB_PASSWORD", "", "password"},
			setString(func(c *Validator) *string { return &c.ControlDB.Password })},
		{Key{"svc.dss.control-db.schema", "SVC_DSS_CONTROL_DB_SCHEMA", "public", "schema"},
			setString(func(c *Validator) *string { return &c.ControlDB.Schema })},
		{Key{"svc.dss.control-db.maximum-pool-size", "SVC_DSS_CONTROL_DB_POOL", "4", "connection pool size"},
			setPositive(func(c *Validator) *int { return &c.ControlDB.MaximumPoolSize })},
	}, redisKeys(func(c *Validator) *Redis { return &c.Redis }, root, "the browser UI's sessions (each with its last validation's reports)")...)
})

// ValidatorKeys returns the validation service's settings, in the order
// the configuration reference lists them.
func ValidatorKeys() []Key { return keysOf(validatorKeys()) }

// finish applies the defaults that depend on other settings and the --dev
// flag. It runs before Validate and is the only place that changes a
// loaded value.
func (c *Validator) finish() {
	if c.BaseURL == "" {
		c.BaseURL = fmt.Sprintf("http://localhost:%d", c.Port)
	}
	if c.MaxRequestBytes <= 0 {
		c.MaxRequestBytes = DefaultValidatorMaxRequestBytes
	}
	if c.Dev {
		c.EnableDev()
	}
}

// EnableDev turns on development mode: permit-all and no control
// database, whatever the sources said. The --dev flag calls it; so does
// the validate command's own --dev.
func (c *Validator) EnableDev() {
	c.Dev = true
	c.PermitAll = true
	c.ControlDB.URL = ""
}

// Validate checks the rules that span several settings. It does not change c.
func (c *Validator) Validate() error {
	var errs []error
	if c.Trust.FailAfter <= c.Trust.WarnAfter {
		errs = append(errs, keyError(validatorKeys(), "svc.dss.validator.trust.fail-after", isoduration.Format(c.Trust.FailAfter),
			fmt.Errorf("must be longer than svc.dss.validator.trust.warn-after (%s)", isoduration.Format(c.Trust.WarnAfter))))
	}
	if c.RefreshJitter >= 24*time.Hour {
		errs = append(errs, keyError(validatorKeys(), "svc.dss.validator.refresh-jitter", isoduration.Format(c.RefreshJitter),
			fmt.Errorf("must be shorter than a day (P1D): the lists are refreshed daily")))
	}
	if c.Egress.ProxyHost != "" && c.Egress.ProxyPort == 0 {
		errs = append(errs, keyError(validatorKeys(), "svc.dss.validator.egress.proxy-port", "0",
			fmt.Errorf("a proxy port is required when svc.dss.validator.egress.proxy-host is set (%s)", c.Egress.ProxyHost)))
	}
	if c.Session.AbsoluteTimeout < c.Session.IdleTimeout {
		errs = append(errs, keyError(validatorKeys(), "svc.dss.validator.session.absolute-timeout", isoduration.Format(c.Session.AbsoluteTimeout),
			fmt.Errorf("must be at least svc.dss.validator.session.idle-timeout (%s)", isoduration.Format(c.Session.IdleTimeout))))
	}
	errs = append(errs, c.ReportSeal.validate()...)
	if !c.ReportSeal.Configured() && c.ReportSeal.TSAURL != "" {
		errs = append(errs, keyError(validatorKeys(), "svc.dss.validator.report-seal.tsa-url", c.ReportSeal.TSAURL,
			errors.New("a time-stamping unit serves the report seal, and no seal key is configured: set svc.dss.validator.report-seal.pkcs12-file, or svc.dss.validator.report-seal.pkcs11-module and pkcs11-key-label")))
	}
	if !c.ReportSeal.Configured() && c.ReportSeal.PKCS12Password != "" {
		errs = append(errs, keyError(validatorKeys(), "svc.dss.validator.report-seal.pkcs12-password", "(hidden)",
			errors.New("a password without its file: set svc.dss.validator.report-seal.pkcs12-file")))
	}
	if c.Multipart.MaxFileSize > c.Multipart.MaxRequestSize {
		errs = append(errs, keyError(validatorKeys(), "fw.servlet.multipart.max-file-size", fmt.Sprint(c.Multipart.MaxFileSize),
			fmt.Errorf("larger than fw.servlet.multipart.max-request-size (%d bytes)", c.Multipart.MaxRequestSize)))
	}
	if err := validateRedis(validatorKeys(), c.Redis); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// validate checks that the seal is one key, PKCS#12 or PKCS#11, with
// what each needs.
func (r ReportSeal) validate() []error {
	const prefix = "svc.dss.validator.report-seal."
	var errs []error
	if r.PKCS12File.Raw != "" && r.PKCS11Module != "" {
		errs = append(errs, keyError(validatorKeys(), prefix+"pkcs11-module", r.PKCS11Module,
			fmt.Errorf("the seal is one key: a PKCS#12 file (%spkcs12-file) or a PKCS#11 key, not both", prefix)))
	}
	pkcs11 := []struct{ key, value string }{
		{"pkcs11-token", r.PKCS11Token}, {"pkcs11-key-label", r.PKCS11KeyLabel}, {"certificate", r.Certificate.Raw},
	}
	for _, k := range pkcs11 {
		switch {
		case r.PKCS11Module != "" && k.value == "":
			errs = append(errs, keyError(validatorKeys(), prefix+k.key, "",
				fmt.Errorf("required with %spkcs11-module (%s)", prefix, r.PKCS11Module)))
		case r.PKCS11Module == "" && k.value != "":
			errs = append(errs, keyError(validatorKeys(), prefix+k.key, k.value,
				fmt.Errorf("a PKCS#11 seal setting without %spkcs11-module", prefix)))
		}
	}
	if r.PKCS11Module == "" && r.PKCS11PIN != "" {
		errs = append(errs, keyError(validatorKeys(), prefix+"pkcs11-pin", "(hidden)",
			fmt.Errorf("a PKCS#11 seal setting without %spkcs11-module", prefix)))
	}
	return errs
}
