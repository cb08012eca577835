package validation_test

import (
	"io"
	"log/slog"
	"testing"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
)

// service builds validation over e's lists with env on top, under the
// validation service's configuration.
func (e *env) service(t *testing.T, env ...string) (*validation.Validator, *logBuffer) {
	t.Helper()
	lists, err := e.eco.ValidatorEnv(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	base := append([]string{"SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_TL_CACHE=" + e.cacheDir}, lists...)
	cfg, err := config.LoadValidator(nil, append(base, env...), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	logs := &logBuffer{}
	v := serviceValidator(t, cfg, slog.New(slog.NewJSONHandler(logs, nil)), e.clock.Now)
	return v, logs
}
