package egress

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/svc-dss/dss/adapters/egress/internal/fetch"
	"github.com/svc-dss/dss/adapters/formats/crl"
)

// ErrCRLUnavailable is wrapped by [FetchCRL] when the distribution point
// gave no usable answer (no connection, refused by the egress guard, an
// HTTP status other than 200, a body over crl.MaxBytes).
var ErrCRLUnavailable = errors.New("crl: distribution point unavailable")

// FetchCRL downloads and parses the CRL at url with client, reading at most
// crl.MaxBytes. Failures to obtain the bytes wrap [ErrCRLUnavailable]; a
// refusal by the egress guard also unwraps to *[BlockedError]. Parse
// failures wrap crl.ErrMalformed. The CRL is not verified.
//
// For URLs taken from certificates, client must be the guarded client of
// [NewCertClient].
func FetchCRL(ctx context.Context, client *http.Client, url string) (*crl.CRL, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: GET %s: %w", ErrCRLUnavailable, url, err)
	}
	req.Header.Set("User-Agent", "svc-dss-validator")
	body, err := fetch.Body(client, req, crl.MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("%w: GET %s: %w", ErrCRLUnavailable, url, err)
	}
	c, err := crl.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	return c, nil
}
