// Package fetch reads bounded HTTP answers for the certificate-driven
// fetches (AIA, OCSP, CRL).
package fetch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// ErrTooLarge is returned for a body over the caller's limit.
var ErrTooLarge = errors.New("body too large")

// A StatusError reports an HTTP status other than 200.
type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprintf("HTTP %d", e.Code) }

// Body sends req with client and returns the body of a 200 answer, which
// must hold between 1 and limit bytes. A declared Content-Length over limit
// is refused before the body is read.
func Body(client *http.Client, req *http.Request, limit int64) ([]byte, error) {
	res, err := client.Do(req)
	if err != nil {
		// Callers name the method and URL themselves; *url.Error
		// would say them a second time.
		if ue, ok := err.(*url.Error); ok {
			return nil, ue.Err
		}
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		// Draining a little keeps the connection reusable without
		// letting a hostile server make us read much.
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 4<<10))
		return nil, &StatusError{Code: res.StatusCode}
	}
	if res.ContentLength > limit {
		return nil, fmt.Errorf("%w: %d bytes declared, limit %d", ErrTooLarge, res.ContentLength, limit)
	}
	var buf bytes.Buffer
	if res.ContentLength > 0 {
		buf.Grow(int(res.ContentLength))
	}
	n, err := io.Copy(&buf, io.LimitReader(res.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading body: %w", err)
	}
	if n > limit {
		return nil, fmt.Errorf("%w: over %d bytes", ErrTooLarge, limit)
	}
	if n == 0 {
		return nil, errors.New("empty body")
	}
	return buf.Bytes(), nil
}
