// Package upload reads multipart/form-data uploads under two limits: the
// size of one file part and the size of the whole request.
//
// # Behaviour
//
// A handler calls [Read] once it has authenticated the caller: nothing
// reads a body before that, so an anonymous request costs no parsing and
// no memory. Buffers grow with what has arrived, never with what the
// Content-Length announces: a stalled upload holds what it sent, not what
// it declared.
//
// A [Guard] names a plain field that must open the form, such as the
// browser UI's form token. It is checked within the first guardBudget
// bytes, before any file part is read.
//
// Parts are held in memory: both limits are small (tens of megabytes) and
// every document reader needs the whole document in memory anyway.
//
// Error messages quote nothing the client sent (field names, header
// lines): they are fixed words and the configured limits.
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

// A Guard is a plain field that must be the form's first part, and the
// check of its value; the zero Guard checks nothing. Read returns Check's
// error as it is, and an error wrapping ErrGuard for a form that does not
// open with exactly one such field within guardBudget bytes.
type Guard struct {
	Field string
	Check func(value string) error
}

// ErrGuard is wrapped by the error for a form that does not open with its
// guard's field, or holds it twice.
var ErrGuard = errors.New("upload: the form does not open with its guard field")

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
	File    bool   // a file part over the per-file limit
}

func (e *TooLargeError) Error() string {
	if e.File {
		return fmt.Sprintf("a file exceeds the limit of %d bytes (%s)", e.Limit, e.Setting)
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

// guardBudget is how far into the body a guard's field must have ended:
// a boundary of at most 70 bytes (RFC 2046), a part header, and a value
// such as a 43-character token fit many times over.
const guardBudget = 4 << 10

// Read parses r's multipart body; g, when its Field is set, must open it.
func Read(r *http.Request, l Limits, g Guard) (*Form, error) {
	if r.ContentLength > l.MaxRequestSize {
		return nil, &TooLargeError{Limit: l.MaxRequestSize, Setting: RequestSizeSetting}
	}
	_, params, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if err != nil || params["boundary"] == "" {
		return nil, fmt.Errorf("%w: no multipart boundary in Content-Type", ErrMalformed)
	}
	budget := &budgetReader{r: r.Body, left: guardBudget, guarding: g.Field != ""}
	total := &countingReader{r: budget, left: l.MaxRequestSize}
	mr := multipart.NewReader(total, params["boundary"])
	form := &Form{Files: map[string][]File{}, Values: map[string][]string{}}
	for n := 0; ; n++ {
		p, err := mr.NextPart()
		if err == io.EOF {
			if n == 0 && g.Field != "" {
				return nil, fmt.Errorf("%w: the form is empty", ErrGuard)
			}
			// Read the epilogue too, within the request limit: a body
			// read to its end lets the connection serve the next request.
			if _, err := io.Copy(io.Discard, total); err != nil {
				return nil, classify(err, total, budget.guarding, l)
			}
			return form, nil
		}
		if err != nil {
			return nil, classify(err, total, budget.guarding, l)
		}
		if n == maxParts {
			return nil, fmt.Errorf("%w: more than %d parts", ErrMalformed, maxParts)
		}
		field := p.FormName()
		if g.Field != "" && (n == 0) != (field == g.Field && p.FileName() == "") {
			return nil, fmt.Errorf("%w: field %d", ErrGuard, n+1)
		}
		limit, setting := int64(maxValueSize), ""
		if p.FileName() != "" {
			limit, setting = l.MaxFileSize, FileSizeSetting
		}
		// The buffer grows with the part as it arrives (bytes.Buffer
		// doubles), so a stalled upload holds at most twice what it sent.
		var buf bytes.Buffer
		m, err := io.Copy(&buf, io.LimitReader(p, limit+1))
		if err != nil {
			return nil, classify(err, total, budget.guarding, l)
		}
		if m > limit {
			if setting == "" {
				return nil, fmt.Errorf("%w: a form field is longer than %d bytes", ErrMalformed, limit)
			}
			return nil, &TooLargeError{Limit: limit, Setting: setting, File: true}
		}
		if n == 0 && g.Field != "" {
			if err := g.Check(buf.String()); err != nil {
				return nil, err
			}
			budget.guarding = false // the guard passed: the request limit alone
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

// classify tells a read that failed before its guard passed (the guard's
// failure, whatever broke: nothing the client sent was accepted yet), or
// stopped at a size cap, from a broken body. The reason of a broken body
// is in fixed words: the multipart package's errors quote the offending
// lines.
func classify(err error, total *countingReader, guarding bool, l Limits) error {
	switch {
	case guarding:
		return fmt.Errorf("%w: not within the first %d bytes of a readable form", ErrGuard, guardBudget)
	case total.over:
		return &TooLargeError{Limit: l.MaxRequestSize, Setting: RequestSizeSetting}
	}
	if _, ok := errors.AsType[*bodylimit.TooLargeError](err); ok {
		return err // the API body cap, set further out, fired first
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: the body ends before its closing boundary", ErrMalformed)
	}
	return fmt.Errorf("%w: the body is not multipart/form-data with the boundary of its Content-Type", ErrMalformed)
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

// errBudget ends the read of a guard's field that has not ended within
// guardBudget bytes.
var errBudget = errors.New("upload: guard budget spent")

// budgetReader, while guarding, passes at most left bytes and then fails
// with errBudget. It fails only when more is asked for, so the bytes of
// the guard's field pass whole when they fit; once the guard has passed it
// lets the rest through.
type budgetReader struct {
	r        io.Reader
	left     int64
	guarding bool
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if !b.guarding {
		return b.r.Read(p)
	}
	if b.left <= 0 {
		return 0, errBudget
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}
