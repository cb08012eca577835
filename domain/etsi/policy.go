package etsi

import (
	"errors"
	"fmt"
	"time"

	"github.com/svc-dss/dss/domain/algorithm"
)

// ErrInvalidPolicy is wrapped by every error of [Policy.Validate].
var ErrInvalidPolicy = errors.New("etsi: invalid policy")

// Policy is the validation policy of one validation, in the style of
// x509.VerifyOptions.
type Policy struct {
	// ValidationTime is the time of validation (EN 319 102-1: "current
	// time" or a time in the past the caller chooses). The zero value is
	// invalid: Validate fails instead of defaulting to now.
	ValidationTime time.Time
	// Algorithms are the cryptographic constraints; nil is
	// algorithm.Default(): the constraints are on unless a policy
	// replaces them.
	Algorithms *algorithm.Catalogue
	// Constraints are the levels of the checks that are a matter of
	// policy; the zero value is DefaultConstraints.
	Constraints Constraints
	// ExpiryWarning is how far ahead of the validation time the end of
	// an algorithm's acceptability is warned of (ALGORITHM_EXPIRES_SOON);
	// zero: never. Negative is invalid.
	ExpiryWarning time.Duration
}

// Validate reports whether p can be used. It does not change p.
func (p Policy) Validate() error {
	if p.ValidationTime.IsZero() {
		return fmt.Errorf("%w: ValidationTime is zero", ErrInvalidPolicy)
	}
	if p.ExpiryWarning < 0 {
		return fmt.Errorf("%w: ExpiryWarning is negative (%s)", ErrInvalidPolicy, p.ExpiryWarning)
	}
	return nil
}
