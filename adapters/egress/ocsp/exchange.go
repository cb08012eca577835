package ocsp

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	"github.com/svc-dss/dss/adapters/egress/internal/fetch"
)

// Exchange POSTs request (from [Request]) to the responder at url
// (RFC 6960, appendix A.1) with client and parses the answer. The body is
// read up to [MaxResponseBytes]. A response whose status is not Successful
// is returned as an error wrapping [ErrUnavailable], like a transport
// failure: both mean this source has no answer now. The response is not
// verified.
//
// For URLs taken from certificates, client must be the guarded client of
// egress.NewCertClient; a fetch it refuses surfaces as an error wrapping
// both [ErrUnavailable] and *egress.BlockedError.
func Exchange(ctx context.Context, client *http.Client, url string, request []byte) (*Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(request))
	if err != nil {
		return nil, fmt.Errorf("%w: POST %s: %w", ErrUnavailable, url, err)
	}
	req.Header.Set("Content-Type", "application/ocsp-request")
	req.Header.Set("Accept", "application/ocsp-response")
	req.Header.Set("User-Agent", "svc-dss-validator")
	body, err := fetch.Body(client, req, MaxResponseBytes)
	if err != nil {
		return nil, fmt.Errorf("%w: POST %s: %w", ErrUnavailable, url, err)
	}
	// The Content-Type is not checked: responders label their answers
	// carelessly, and the parse decides anyway.
	resp, err := ParseResponse(body)
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", url, err)
	}
	if resp.Status != Successful {
		return nil, fmt.Errorf("%w: POST %s: response status %v", ErrUnavailable, url, resp.Status)
	}
	return resp, nil
}
