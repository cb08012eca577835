// Package contracttest holds the servers' real requests and responses to
// their OpenAPI 3.1 documents (docs/validate-api.yaml,
// docs/signing-api.yaml), with github.com/pb33f/libopenapi-validator.
//
// It is for tests only: the servers' tests import it, no program does,
// so the OpenAPI modules never enter a binary (deploy's
// TestImagesBuildProductionPrograms checks it).
package contracttest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/content"
	verrors "github.com/pb33f/libopenapi-validator/errors"
)

// A Contract is one OpenAPI document, ready to check exchanges against.
type Contract struct {
	v validator.Validator
}

// Load reads the OpenAPI document at path and checks that it is itself
// valid. Request bodies are decoded by their media type (JSON,
// multipart), and properties a schema does not declare are errors, so
// that a field added to, renamed in or removed from a response without
// the document fails. Formats are asserted: a date-time or a uuid that
// is not one is an error too. The bodies besides JSON and text (a PDF,
// a JWT) are read as strings, so that
// their schemas' patterns hold them; a media type the document declares
// that no decoder reads is an error, not a body left unchecked. Security
// schemes are not enforced here: the servers' authentication tests hold
// them, and under permit-all no header is read.
func Load(t testing.TB, path string) *Contract {
	t.Helper()
	spec, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := libopenapi.NewDocument(spec)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	v, errs := validator.NewValidator(doc, config.WithStandardBodyDecoders(), config.WithoutSecurityValidation(), config.WithStrictMode(), config.WithFormatAssertions(),
		// Headers the document does not describe (transport, caching,
		// the security headers every page gets) are not the contract.
		config.WithStrictIgnorePaths("$.headers.*"),
		config.WithBodyDecoder("application/pdf", content.BinaryDecoder()),
		config.WithBodyDecoder("application/jwt", content.TextDecoder()),
		config.WithRejectUnsupportedBodyContent())
	if len(errs) > 0 {
		t.Fatalf("%s: %v", path, errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		t.Fatalf("%s is not a valid OpenAPI document:\n%s", path, describe(verrs))
	}
	return &Contract{v: v}
}

// Do sends req, checks the request and the response against the
// document, failing t on any difference, and returns the response with
// its body read. checkRequest is false for a request that is meant to
// break the contract (a malformed upload), whose response must still
// keep it.
func (c *Contract) Do(t testing.TB, req *http.Request, checkRequest bool) (*http.Response, []byte) {
	t.Helper()
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			t.Fatal(err)
		}
		req.Body.Close()
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if checkRequest {
		req.Body = io.NopCloser(bytes.NewReader(body))
		if ok, errs := c.v.ValidateHttpRequest(req); !ok {
			t.Errorf("%s %s: the request breaks the contract:\n%s", req.Method, req.URL.Path, describe(errs))
		}
	}
	if msg := c.Response(req, res.StatusCode, res.Header, got); msg != "" {
		t.Errorf("%s %s: the response %d breaks the contract:\n%s\nbody: %s", req.Method, req.URL.Path, res.StatusCode, msg, printable(got))
	}
	return res, got
}

// Response checks a response to req against the document; it returns
// what breaks it, or "" when nothing does.
func (c *Contract) Response(req *http.Request, status int, header http.Header, body []byte) string {
	res := &http.Response{StatusCode: status, Header: header.Clone(), Body: io.NopCloser(bytes.NewReader(body)), Request: req}
	if _, errs := c.v.ValidateHttpResponse(req, res); len(errs) > 0 {
		return describe(errs)
	}
	return ""
}

// printable is body for a failure message: itself when it is text, else
// its length (a PDF report).
func printable(body []byte) string {
	if !utf8.Valid(body) {
		return fmt.Sprintf("(%d bytes, not UTF-8)", len(body))
	}
	return string(body)
}

// describe writes validation errors one per line; each names the
// schema violations that caused it.
func describe(errs []*verrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "  %s\n", e.Error())
	}
	return b.String()
}
