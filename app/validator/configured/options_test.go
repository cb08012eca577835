package configured_test

import (
	"io"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/freshness"
)

// The front door's default thresholds are the service's defaults: a
// library user and the service judge a list's freshness alike.
func TestDefaultThresholdsAreTheServiceDefaults(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	cfg, err := config.LoadValidator(nil, []string{"SVC_DSS_VALIDATOR_PERMIT_ALL=true"}, io.Discard)
	is.NoErr(err)
	is.Equal(validation.DefaultThresholds(), freshness.Thresholds{WarnAfter: cfg.Trust.WarnAfter, FailAfter: cfg.Trust.FailAfter,
		FailureThreshold: cfg.Trust.FailureThreshold, WithdrawalWindow: cfg.Trust.WithdrawalWindow})
}
