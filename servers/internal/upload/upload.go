// Package upload reads multipart/form-data uploads under two limits: the
// size of one file part and the size of the whole request.
//
// # Behaviour
//
// The validator reads every multipart request eagerly, before routing, as
// the deployment it replaces did (its servlet dispatcher resolved multipart
// before looking up a handler), so the limits hold whatever the path. The
// parsed form is kept on the request for the handler.
//
// Parts are held in memory: both limits are small (tens of megabytes) and
// every document reader needs the whole document in memory anyway.
package upload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/servers/internal/bodylimit"
)

// Limits are the two caps, in bytes.
type Limits struct {
	MaxFileSize    int64
	MaxRequestSize int64
}

// A File is one file part.
type File struct {
	Field       string
	Name        string // the file name the client gave, may be empty
	ContentType string
	Data        []byte
}

// A Form is a parsed upload: file parts by field name, in order, and
// plain values.
type Form struct {
	Files  map[string][]File
	Values map[string][]string
}

// File returns the first file of field, if any.
func (f *Form) File(field string) (File, bool) {
	files := f.Files[field]
	if len(files) == 0 {
		return File{}, false
	}
	return files[0], true
}

// A TooLargeError reports an upload over one of the limits.
type TooLargeError struct {
	Limit   int64
	Setting string // the configuration key of the limit
	Field   string // the file part, for the per-file limit
}

func (e *TooLargeError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("file part %q exceeds the limit of %d bytes (%s)", e.Field, e.Limit, e.Setting)
	}
	return fmt.Sprintf("multipart request exceeds the limit of %d bytes (%s)", e.Limit, e.Setting)
}

// ErrMalformed is wrapped by the error for an upload that is not readable
// multipart/form-data.
var ErrMalformed = errors.New("malformed multipart upload")

// Setting names used in messages.
const (
	FileSizeSetting    = "fw.servlet.multipart.max-file-size"
	RequestSizeSetting = "fw.servlet.multipart.max-request-size"
)

// maxValueSize caps a non-file field; such fields are short (names, flags).
const maxValueSize = 64 << 10

// maxParts caps the number of parts, so that a stream of empty parts cannot
// keep the server busy.
const maxParts = 100

// Read parses r's multipart body. The caller has checked the content type.
func Read(r *http.Request, l Limits) (*Form, error) {
	if r.ContentLength > l.MaxRequestSize {
		return nil, &TooLargeError{Limit: l.MaxRequestSize, Setting: RequestSizeSetting}
	}
	_, params, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if err != nil || params["boundary"] == "" {
		return nil, fmt.Errorf("%w: no multipart boundary in Content-Type", ErrMalformed)
	}
	total := &countingReader{r: r.Body, left: l.MaxRequestSize}
	mr := multipart.NewReader(total, params["boundary"])
	form := &Form{Files: map[string][]File{}, Values: map[string][]string{}}
	sized := false
	for n := 0; ; n++ {
		p, err := mr.NextPart()
		if err == io.EOF {
			return form, nil
		}
		if err != nil {
			return nil, classify(err, total, l)
		}
		if n == maxParts {
			return nil, fmt.Errorf("%w: more than %d parts", ErrMalformed, maxParts)
		}
		field := p.FormName()
		limit, setting := int64(maxValueSize), ""
		if p.FileName() != "" {
			limit, setting = l.MaxFileSize, FileSizeSetting
		}
		var buf bytes.Buffer
		if p.FileName() != "" && r.ContentLength > 0 && !sized {
			// A declared length bounds the part: size the buffer of the
			// first file (the document) once instead of doubling it up to
			// three times its size. Only the first: a request of many
			// small parts must not reserve the limit for each.
			buf.Grow(int(min(r.ContentLength, limit+1)))
			sized = true
		}
		m, err := io.Copy(&buf, io.LimitReader(p, limit+1))
		if err != nil {
			return nil, classify(err, total, l)
		}
		if m > limit {
			if setting == "" {
				return nil, fmt.Errorf("%w: field %q is longer than %d bytes", ErrMalformed, field, limit)
			}
			return nil, &TooLargeError{Limit: limit, Setting: setting, Field: field}
		}
		if p.FileName() == "" {
			form.Values[field] = append(form.Values[field], buf.String())
			continue
		}
		form.Files[field] = append(form.Files[field], File{
			Field: field, Name: p.FileName(), ContentType: p.Header.Get(echo.HeaderContentType), Data: buf.Bytes(),
		})
	}
}

// classify tells a read that stopped at a size cap from a broken body.
func classify(err error, total *countingReader, l Limits) error {
	if total.over {
		return &TooLargeError{Limit: l.MaxRequestSize, Setting: RequestSizeSetting}
	}
	if _, ok := errors.AsType[*bodylimit.TooLargeError](err); ok {
		return err // the API body cap, set further out, fired first
	}
	return fmt.Errorf("%w: %v", ErrMalformed, err)
}

type countingReader struct {
	r    io.Reader
	left int64
	over bool
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		c.over = true
		return 0, errors.New("request size limit reached")
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		c.over = true
		return n, errors.New("request size limit reached")
	}
	return n, err
}

const formKey = "svc-dss.upload.form"

// Middleware parses every multipart/form-data request before routing and
// keeps the form for FormOf; parse errors end the request.
func Middleware(l Limits) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ct, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
			if ct != echo.MIMEMultipartForm {
				return next(c)
			}
			form, err := Read(c.Request(), l)
			if err != nil {
				return err
			}
			c.Set(formKey, form)
			return next(c)
		}
	}
}

// FormOf returns the form Middleware parsed for c, if any.
func FormOf(c echo.Context) (*Form, bool) {
	f, ok := c.Get(formKey).(*Form)
	return f, ok
}
