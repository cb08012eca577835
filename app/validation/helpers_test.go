package validation_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/app/validator/configured"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/verdict"
)

// serviceValidator is the validator the validation service builds for
// cfg (configured.ValidationOptions), with opts on top.
func serviceValidator(t testing.TB, cfg config.Validator, logger *slog.Logger, clock func() time.Time, opts ...validation.Option) *validation.Validator {
	t.Helper()
	base, err := configured.ValidationOptions(cfg, logger, clock)
	if err != nil {
		t.Fatal(err)
	}
	v, err := validation.New(context.Background(), append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// validateReport validates doc with v at at (zero: v's time), trusting
// anchors besides v's.
func validateReport(v *validation.Validator, doc validation.Document, at time.Time, anchors ...*x509.Certificate) (report.Validation, error) {
	if !at.IsZero() {
		v = v.At(at)
	}
	if len(anchors) > 0 {
		v = v.Trusting(anchors...)
	}
	res, err := v.Validate(context.Background(), doc)
	if err != nil {
		return report.Validation{}, err
	}
	// Every result's messages are held to the catalogue (messages_test.go).
	if _, err := catalogued(res.Summary); err != nil {
		return report.Validation{}, fmt.Errorf("the catalogue does not say the messages: %w", err)
	}
	return res.Validation, nil
}

// validate is validateReport's summary.
func validate(v *validation.Validator, doc validation.Document, at time.Time, anchors ...*x509.Certificate) (verdict.ValidationSummary, error) {
	r, err := validateReport(v, doc, at, anchors...)
	return r.Summary, err
}
