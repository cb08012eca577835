package egress

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/svc-dss/dss/ports"
)

// MaxListBytes caps a downloaded trusted list. The largest lists are a few
// megabytes (2.4 MB in the corpus); the reader refuses anything over 16 MiB
// (trustlist.MaxInputBytes), so a larger body is not read at all: a
// refresh fetches four lists at once.
const MaxListBytes = 16 << 20

// ListSource downloads trusted lists. It implements ports.TrustListSource.
type ListSource struct {
	client *http.Client
}

var _ ports.TrustListSource = (*ListSource)(nil)

// NewListSource returns a ListSource over client (from NewClient).
func NewListSource(client *http.Client) *ListSource { return &ListSource{client: client} }

// A FetchError reports a download that failed: no answer, a status other
// than 200, or a body over MaxListBytes. Its text is for the log only.
type FetchError struct {
	URL    string
	Status int // HTTP status, 0 when there was none
	Err    error
}

func (e *FetchError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("egress: GET %s: HTTP %d", e.URL, e.Status)
	}
	return fmt.Sprintf("egress: GET %s: %v", e.URL, e.Err)
}

func (e *FetchError) Unwrap() error { return e.Err }

// Fetch downloads the list at url. With knownSHA256 set it first asks the
// TS 119 612 digest companion (the list's URL with its extension replaced
// by .sha2): a matching digest returns ports.ErrNotModified without the
// download. Without a companion, the list is downloaded and a body with the
// known digest also returns ports.ErrNotModified. Either way the publisher
// was reached, which the caller counts as an online confirmation.
func (s *ListSource) Fetch(ctx context.Context, url, knownSHA256 string) ([]byte, error) {
	if knownSHA256 != "" {
		if digest, ok := s.companionDigest(ctx, url); ok && strings.EqualFold(digest, knownSHA256) {
			return nil, ports.ErrNotModified
		}
	}
	data, err := s.get(ctx, url, MaxListBytes)
	if err != nil {
		return nil, err
	}
	if knownSHA256 != "" {
		sum := sha256.Sum256(data)
		if strings.EqualFold(hex.EncodeToString(sum[:]), knownSHA256) {
			return nil, ports.ErrNotModified
		}
	}
	return data, nil
}

// companionDigest reads the .sha2 file next to url and returns the
// SHA-256 it holds as hex. Publishers write it as hex or as base64; any
// other content, or no file, means no companion.
func (s *ListSource) companionDigest(ctx context.Context, url string) (string, bool) {
	sha2 := sha2URL(url)
	if sha2 == "" {
		return "", false
	}
	raw, err := s.get(ctx, sha2, 1024)
	if err != nil {
		return "", false
	}
	text := strings.TrimSpace(string(raw))
	if b, err := hex.DecodeString(text); err == nil && len(b) == sha256.Size {
		return hex.EncodeToString(b), true
	}
	if b, err := base64.StdEncoding.DecodeString(text); err == nil && len(b) == sha256.Size {
		return hex.EncodeToString(b), true
	}
	return "", false
}

// sha2URL replaces the extension of url's last path segment with .sha2,
// or returns "" when the segment has no extension.
func sha2URL(url string) string {
	q := strings.IndexAny(url, "?#")
	if q >= 0 {
		return "" // a list served with a query string has no predictable companion
	}
	slash := strings.LastIndex(url, "/")
	dot := strings.LastIndex(url, ".")
	if dot <= slash {
		return ""
	}
	return url[:dot] + ".sha2"
}

func (s *ListSource) get(ctx context.Context, url string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, &FetchError{URL: url, Err: err}
	}
	req.Header.Set("User-Agent", "svc-dss-validator")
	res, err := s.client.Do(req)
	if err != nil {
		return nil, &FetchError{URL: url, Err: err}
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10)) // keep the connection reusable
		return nil, &FetchError{URL: url, Status: res.StatusCode}
	}
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(res.Body, limit+1))
	if err != nil {
		return nil, &FetchError{URL: url, Err: err}
	}
	if n > limit {
		return nil, &FetchError{URL: url, Err: fmt.Errorf("body larger than %d bytes", limit)}
	}
	if n == 0 {
		// An empty answer is a publisher failure, not a list that fails to
		// parse: the last good copy stays, as EU DSS treats it.
		return nil, &FetchError{URL: url, Err: errors.New("empty body")}
	}
	return buf.Bytes(), nil
}

// IsFetchError reports whether err is, or wraps, a *FetchError: the
// publisher was not reached or did not serve the list.
func IsFetchError(err error) bool {
	_, ok := errors.AsType[*FetchError](err)
	return ok
}
