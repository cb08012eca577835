package freshness

import (
	"errors"
	"fmt"
	"time"
)

// ErrInvalidThresholds is wrapped by every error [Thresholds.Validate]
// returns.
var ErrInvalidThresholds = errors.New("freshness: invalid thresholds")

// Thresholds are the deployment's freshness settings
// (validation-service.md, configuration keys svc.dss.validator.trust.*).
// There are no defaults here: the zero value of every field is invalid and
// [Thresholds.Validate] says so. The application applies the spec's
// defaults (P7D, P30D, 3) when it loads its configuration.
type Thresholds struct {
	// WarnAfter is the stale threshold (key warn-after) of axis 1: the time
	// since the last online confirmation, or since the issue date of a
	// copy never confirmed online. It must be positive. It does not apply
	// to axis 2, which turns STALE at NextUpdate itself (§3 rule 2;
	// decision 0012).
	WarnAfter time.Duration
	// FailAfter is the expired threshold (key fail-after), on both axes:
	// since the last online confirmation (or issue date), and since the
	// list's NextUpdate lapsed. It must be longer than WarnAfter.
	FailAfter time.Duration
	// FailureThreshold is the number of consecutive failed refresh
	// attempts of one list at which it is reported failing (key
	// failure-threshold). It must be at least 1.
	FailureThreshold int
	// WithdrawalWindow (key withdrawal-window) is the least period a
	// qualified verdict on a list that is not current says it may miss
	// withdrawals from (validation-service.md §3, "Degraded behaviour" 2);
	// the time since the list's last confirmation when longer. Zero
	// leaves only that time.
	WithdrawalWindow time.Duration
}

// Validate reports whether t can be used. It does not change t and applies
// no defaults: a zero WarnAfter, FailAfter or FailureThreshold is an error,
// because a zero threshold would make every list STALE, EXPIRED or failing
// at once. [Evaluate] does not call it; the caller validates once, when
// the thresholds are configured.
func (t Thresholds) Validate() error {
	var errs []error
	if t.WarnAfter <= 0 {
		errs = append(errs, fmt.Errorf("%w: warn-after must be positive, got %s", ErrInvalidThresholds, t.WarnAfter))
	}
	if t.FailAfter <= t.WarnAfter {
		errs = append(errs, fmt.Errorf("%w: fail-after (%s) must be longer than warn-after (%s)", ErrInvalidThresholds, t.FailAfter, t.WarnAfter))
	}
	if t.FailureThreshold < 1 {
		errs = append(errs, fmt.Errorf("%w: failure-threshold must be at least 1, got %d", ErrInvalidThresholds, t.FailureThreshold))
	}
	return errors.Join(errs...)
}
