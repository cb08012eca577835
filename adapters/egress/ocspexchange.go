package egress

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/svc-dss/dss/adapters/egress/internal/fetch"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
)

// ErrOCSPUnavailable is wrapped by [ExchangeOCSP] when the responder gave no
// usable answer; the caller treats the source as unavailable.
var ErrOCSPUnavailable = errors.New("ocsp: responder unavailable")

// ExchangeOCSP POSTs request (from ocsp.Request) to the responder at url
// (RFC 6960, appendix A.1) with client and parses the answer. The body is
// read up to ocsp.MaxResponseBytes. A response whose status is not
// Successful is returned as an error wrapping [ErrOCSPUnavailable], like a
// transport failure: both mean this source has no answer now. Parse
// failures wrap ocsp.ErrMalformed. The response is not verified.
//
// For URLs taken from certificates, client must be the guarded client of
// [NewCertClient]; a fetch it refuses surfaces as an error wrapping both
// [ErrOCSPUnavailable] and *[BlockedError].
func ExchangeOCSP(ctx context.Context, client *http.Client, url string, request []byte) (*ocsp.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(request))
	if err != nil {
		return nil, fmt.Errorf("%w: POST %s: %w", ErrOCSPUnavailable, url, err)
	}
	req.Header.Set("Content-Type", "application/ocsp-request")
	req.Header.Set("Accept", "application/ocsp-response")
	req.Header.Set("User-Agent", "svc-dss-validator")
	body, err := fetch.Body(client, req, ocsp.MaxResponseBytes)
	if err != nil {
		return nil, fmt.Errorf("%w: POST %s: %w", ErrOCSPUnavailable, url, err)
	}
	// The Content-Type is not checked: responders label their answers
	// carelessly, and the parse decides anyway.
	resp, err := ocsp.ParseResponse(body)
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", url, err)
	}
	if resp.Status != ocsp.Successful {
		return nil, fmt.Errorf("%w: POST %s: response status %v", ErrOCSPUnavailable, url, resp.Status)
	}
	return resp, nil
}
