package validation_test

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
)

// service builds validation over e's lists with env on top, under the
// validation service's configuration.
func (e *env) service(t *testing.T, env ...string) (*validation.Service, *logBuffer) {
	t.Helper()
	dir := t.TempDir()
	ks, err := e.eco.OJKeystore("pw")
	if err != nil {
		t.Fatal(err)
	}
	ksPath, chPath := filepath.Join(dir, "oj.p12"), filepath.Join(dir, "ch.der")
	if err := os.WriteFile(ksPath, ks, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(chPath, e.eco.SwissSignerDER(), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{
		"SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_TL_CACHE=" + e.cacheDir,
		"SVC_DSS_VALIDATOR_LOTL_URL=" + e.eco.LOTLURL, "SVC_DSS_VALIDATOR_OJ_KEYSTORE=" + ksPath, "SVC_DSS_VALIDATOR_OJ_KEYSTORE_PASSWORD=pw",
		"SVC_DSS_VALIDATOR_CH_TL_URL=" + e.eco.SwissURL, "SVC_DSS_VALIDATOR_CH_TL_SIGNER_CERT=" + chPath,
	}
	cfg, err := config.LoadValidator(nil, append(base, env...), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	logs := &logBuffer{}
	v, err := validation.New(cfg, slog.New(slog.NewJSONHandler(logs, nil)), e.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	return v, logs
}
