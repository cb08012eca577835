// Package problem writes RFC 9457 problem details, the error body of both
// servers' JSON surfaces.
//
// It only renders: deciding which error becomes which status is the job of
// each server's one error handler.
package problem

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// ContentType is the media type of a problem document (RFC 9457 §3).
const ContentType = "application/problem+json"

// A Problem is one problem-details document. Type is a URI naming the kind
// of problem; "about:blank" means the status alone says it all.
type Problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail,omitempty"`
	Instance string `json:"instance,omitempty"`
	// RequestID repeats the X-Request-Id header, an extension member
	// (RFC 9457 §3.2), so a problem pasted into a ticket finds its logs.
	RequestID string `json:"requestId,omitempty"`
}

// New returns a problem of the given kind with the status text as title.
// typ is a short slug ("payload-too-large") or empty for about:blank.
func New(status int, typ, detail string) Problem {
	p := Problem{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: detail}
	if typ != "" {
		p.Type = typePrefix + typ
	}
	return p
}

// Write sends p, filling Instance with the request path and RequestID from
// the response header.
func Write(c echo.Context, p Problem) error {
	if p.Instance == "" {
		p.Instance = c.Request().URL.Path
	}
	if p.RequestID == "" {
		p.RequestID = c.Response().Header().Get(echo.HeaderXRequestID)
	}
	c.Response().Header().Set(echo.HeaderContentType, ContentType)
	c.Response().WriteHeader(p.Status)
	if c.Request().Method == http.MethodHead {
		return nil
	}
	return echoJSON(c, p)
}

func echoJSON(c echo.Context, p Problem) error {
	return c.Echo().JSONSerializer.Serialize(c, p, "")
}

// FromHTTP turns Echo's own errors (404, 405, …) into a problem: the
// status text as title, Echo's message as detail when it says more.
func FromHTTP(e *echo.HTTPError) Problem {
	detail := ""
	if m, ok := e.Message.(string); ok && m != http.StatusText(e.Code) {
		detail = m
	}
	return New(e.Code, "", detail)
}

// Internal is the answer to an error the server does not know: its text
// may name internals, so it goes to the log and the client gets the
// request id to quote.
func Internal() Problem {
	return New(http.StatusInternalServerError, "", "internal error; quote the request id when reporting it")
}
