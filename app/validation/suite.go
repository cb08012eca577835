package validation

import (
	"errors"
	"fmt"
	"time"

	"github.com/svc-dss/dss/domain/algorithm"
)

// WithCryptographicSuite judges the algorithms of every validation
// against c (a TS 119 322 document read by adapters/cryptosuite) instead
// of algorithm.Default(). An empty catalogue, which would refuse every
// signature, is an error.
func WithCryptographicSuite(c algorithm.Catalogue) Option {
	return option("WithCryptographicSuite", func(s *settings) error {
		if c.Empty() {
			return errors.New("the catalogue lists no algorithm")
		}
		s.algorithms = &c
		return nil
	})
}

// WithExpiryWarning warns (ALGORITHM_EXPIRES_SOON) of an algorithm of a
// signature or its path that stops being acceptable within d after the
// validation time; without it nothing is warned of.
func WithExpiryWarning(d time.Duration) Option {
	return option("WithExpiryWarning", func(s *settings) error {
		if d < 0 {
			return fmt.Errorf("the window is negative (%s)", d)
		}
		s.expiryWarning = d
		return nil
	})
}

// Judging returns a view of v that judges algorithms against c instead
// of v's catalogue, as WithCryptographicSuite does: for one validation's
// suite, chosen by its policy, without building a validator again.
func (v *Validator) Judging(c algorithm.Catalogue) *Validator {
	w := *v
	w.algorithms = &c
	return &w
}

// catalogue is the catalogue of this view.
func (v *Validator) catalogue() *algorithm.Catalogue {
	if v.algorithms != nil {
		return v.algorithms
	}
	return &v.core.algorithms
}
