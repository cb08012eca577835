package egress

import (
	"bytes"
	"context"
	"crypto"
	"fmt"
	"io"
	"net/http"

	"github.com/svc-dss/dss/adapters/formats/tsp"
)

// MaxTimestampResponseBytes caps a time-stamping unit's answer: a token
// with the unit's chain is a few kilobytes.
const MaxTimestampResponseBytes = 1 << 20

// A TSA asks one time-stamping unit for RFC 3161 tokens over HTTP
// (RFC 3161, section 3.4): the unit the operator configured for the
// service's own seal, not one a document names, so the client is that
// of NewClient (the proxy, no private-network guard).
type TSA struct {
	client *http.Client
	url    string
}

// NewTSA returns the client of the unit at url.
func NewTSA(client *http.Client, url string) *TSA { return &TSA{client: client, url: url} }

// Timestamp returns a TimeStampToken over digest, the hash h of the data,
// as the unit granted it: with its certificate, the request's nonce and
// an imprint that is digest, all checked.
func (t *TSA) Timestamp(ctx context.Context, h crypto.Hash, digest []byte) ([]byte, error) {
	nonce, err := tsp.NewNonce()
	if err != nil {
		return nil, err
	}
	req, err := tsp.CreateRequest(h, digest, tsp.RequestOptions{Nonce: nonce, CertReq: true})
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(req))
	if err != nil {
		return nil, fmt.Errorf("egress: TSA %s: %w", t.url, err)
	}
	hr.Header.Set("Content-Type", "application/timestamp-query")
	resp, err := t.client.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("egress: TSA %s: %w", t.url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxTimestampResponseBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("egress: TSA %s: %w", t.url, err)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("egress: TSA %s: HTTP %d", t.url, resp.StatusCode)
	case len(body) > MaxTimestampResponseBytes:
		return nil, fmt.Errorf("egress: TSA %s: an answer of more than %d bytes", t.url, MaxTimestampResponseBytes)
	}
	tok, raw, err := tsp.ParseResponse(body)
	if err != nil {
		return nil, fmt.Errorf("egress: TSA %s: %w", t.url, err)
	}
	if tok.Info.Nonce == nil || tok.Info.Nonce.Cmp(nonce) != 0 {
		return nil, fmt.Errorf("egress: TSA %s: the token does not carry the request's nonce", t.url)
	}
	if err := tok.CheckImprintDigest(digest); err != nil {
		return nil, fmt.Errorf("egress: TSA %s: %w", t.url, err)
	}
	return raw, nil
}
