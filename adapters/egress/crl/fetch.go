package crl

import (
	"context"
	"fmt"
	"net/http"

	"github.com/svc-dss/dss/adapters/egress/internal/fetch"
)

// Fetch downloads and parses the CRL at url with client, reading at most
// [MaxBytes]. Failures to obtain the bytes wrap [ErrUnavailable]; a
// refusal by the egress guard also unwraps to *egress.BlockedError. The
// CRL is not verified.
func Fetch(ctx context.Context, client *http.Client, url string) (*CRL, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: GET %s: %w", ErrUnavailable, url, err)
	}
	req.Header.Set("User-Agent", "svc-dss-validator")
	body, err := fetch.Body(client, req, MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("%w: GET %s: %w", ErrUnavailable, url, err)
	}
	c, err := Parse(body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	return c, nil
}
