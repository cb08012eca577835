package upload_test

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/servers/internal/upload"
)

func request(body []byte, contentType string) *http.Request {
	r, _ := http.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	r.Header.Set("Content-Type", contentType)
	return r
}

func TestReadKeepsFilesAndValues(t *testing.T) {
	is := is.New(t)
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	fw, _ := w.CreateFormFile("file", "contract.pdf")
	_, _ = fw.Write([]byte("%PDF-1.7"))
	fw, _ = w.CreateFormFile("detached", "payload.bin")
	_, _ = fw.Write([]byte{0, 1, 2})
	is.NoErr(w.WriteField("note", "hello"))
	is.NoErr(w.Close())

	form, err := upload.Read(request(b.Bytes(), w.FormDataContentType()), upload.Limits{MaxFileSize: 100, MaxRequestSize: 10000}, upload.Guard{})
	is.NoErr(err)
	f, ok := form.File("file")
	is.True(ok)
	is.Equal(f.Name, "contract.pdf")
	is.Equal(string(f.Data), "%PDF-1.7")
	d, ok := form.File("detached")
	is.True(ok)
	is.Equal(d.Data, []byte{0, 1, 2})
	is.Equal(form.Values["note"], []string{"hello"})
	_, ok = form.File("missing")
	is.True(!ok)
}

func TestReadRefusesTooManyParts(t *testing.T) {
	is := is.New(t)
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for range 101 {
		is.NoErr(w.WriteField("x", ""))
	}
	is.NoErr(w.Close())
	_, err := upload.Read(request(b.Bytes(), w.FormDataContentType()), upload.Limits{MaxFileSize: 100, MaxRequestSize: 1 << 20}, upload.Guard{})
	is.True(errors.Is(err, upload.ErrMalformed))
	is.Equal(err.Error(), "malformed multipart upload: more than 100 parts")
}

func TestReadRefusesLongValues(t *testing.T) {
	is := is.New(t)
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	is.NoErr(w.WriteField("note", strings.Repeat("x", 64<<10+1)))
	is.NoErr(w.Close())
	_, err := upload.Read(request(b.Bytes(), w.FormDataContentType()), upload.Limits{MaxFileSize: 100, MaxRequestSize: 1 << 20}, upload.Guard{})
	is.Equal(err.Error(), "malformed multipart upload: a form field is longer than 65536 bytes") // the field's name is the client's: not quoted
}

func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	_ = w.SetBoundary("fuzzboundary")
	fw, _ := w.CreateFormFile("file", "a.pdf")
	_, _ = fw.Write([]byte("%PDF"))
	_ = w.Close()
	f.Add(b.Bytes())
	f.Add([]byte("--fuzzboundary\r\n\r\n--fuzzboundary--"))
	f.Fuzz(func(t *testing.T, body []byte) {
		l := upload.Limits{MaxFileSize: 512, MaxRequestSize: 2048}
		form, err := upload.Read(request(body, "multipart/form-data; boundary=fuzzboundary"), l, upload.Guard{})
		if err != nil {
			var tooLarge *upload.TooLargeError
			if !errors.As(err, &tooLarge) && !errors.Is(err, upload.ErrMalformed) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		for _, files := range form.Files {
			for _, file := range files {
				if int64(len(file.Data)) > l.MaxFileSize {
					t.Fatalf("file of %d bytes passed the %d limit", len(file.Data), l.MaxFileSize)
				}
			}
		}
	})
}

// TestStalledUploadHoldsWhatArrived: an upload that declares 40 MiB and
// stalls after a few bytes holds about what it sent, not what it
// declared (issue 14: the buffer was reserved at the declared length).
func TestStalledUploadHoldsWhatArrived(t *testing.T) {
	is := is.New(t)
	const n = 10
	l := upload.Limits{MaxFileSize: 20 << 20, MaxRequestSize: 40 << 20}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	writers := make([]*io.PipeWriter, n)
	done := make(chan error, n)
	for i := range writers {
		pr, pw := io.Pipe()
		writers[i] = pw
		r, _ := http.NewRequest(http.MethodPost, "/", pr)
		r.Header.Set("Content-Type", "multipart/form-data; boundary=b")
		r.ContentLength = 40 << 20
		go func() { _, err := upload.Read(r, l, upload.Guard{}); done <- err }()
		_, err := pw.Write([]byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n%PDF-1.7 and then nothing"))
		is.NoErr(err)
	}
	held := int64(heap()) - int64(before)
	for _, pw := range writers {
		pw.CloseWithError(io.ErrUnexpectedEOF)
	}
	for range n {
		is.True(errors.Is(<-done, upload.ErrMalformed))
	}
	t.Logf("%d stalled uploads of a declared 40 MiB hold %d bytes", n, held)
	is.True(held < 1<<20) // a few kilobytes each: the readers' buffers
}

// The reasons of a broken body are fixed words: the multipart package's
// errors quote the lines the client sent.
func TestReadMalformed(t *testing.T) {
	tests := []struct {
		name, body, detail string
	}{
		{"unterminated", "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nunterminated",
			"malformed multipart upload: the body ends before its closing boundary"},
		{"a header line that is none", "--b\r\n<script>alert(1)</script>\r\n\r\nx\r\n--b--\r\n",
			"malformed multipart upload: the body is not multipart/form-data with the boundary of its Content-Type"},
		{"no boundary at all", "<script>alert(1)</script>",
			"malformed multipart upload: the body ends before its closing boundary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := upload.Read(request([]byte(tt.body), "multipart/form-data; boundary=b"), upload.Limits{MaxFileSize: 100, MaxRequestSize: 1000}, upload.Guard{})
			is.True(errors.Is(err, upload.ErrMalformed))
			is.Equal(err.Error(), tt.detail)
		})
	}
}

// A guard's field must open the form, once, within the first 4 KiB, and
// is checked before any file part is read.
func TestReadGuard(t *testing.T) {
	errWrong := errors.New("wrong token")
	guard := upload.Guard{Field: "csrf", Check: func(v string) error {
		if v != "token" {
			return errWrong
		}
		return nil
	}}
	type field struct{ name, file, value string }
	tests := []struct {
		name     string
		preamble string
		fields   []field
		err      error // nil: accepted
	}{
		{"the token first", "", []field{{"csrf", "", "token"}, {"file", "a.pdf", "%PDF"}}, nil},
		{"a wrong token", "", []field{{"csrf", "", "forged"}, {"file", "a.pdf", "%PDF"}}, errWrong},
		{"no token", "", []field{{"file", "a.pdf", "%PDF"}}, upload.ErrGuard},
		{"the token after the file", "", []field{{"file", "a.pdf", "%PDF"}, {"csrf", "", "token"}}, upload.ErrGuard},
		{"the token twice", "", []field{{"csrf", "", "token"}, {"csrf", "", "token"}, {"file", "a.pdf", "%PDF"}}, upload.ErrGuard},
		{"the token as a file", "", []field{{"csrf", "t.txt", "token"}, {"file", "a.pdf", "%PDF"}}, upload.ErrGuard},
		{"an empty form", "", nil, upload.ErrGuard},
		{"the token beyond 4 KiB", strings.Repeat("x", 4<<10), []field{{"csrf", "", "token"}, {"file", "a.pdf", "%PDF"}}, upload.ErrGuard},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var b bytes.Buffer
			b.WriteString(tt.preamble)
			w := multipart.NewWriter(&b)
			is.NoErr(w.SetBoundary("b"))
			for _, f := range tt.fields {
				var fw io.Writer
				var err error
				if f.file == "" {
					fw, err = w.CreateFormField(f.name)
				} else {
					fw, err = w.CreateFormFile(f.name, f.file)
				}
				is.NoErr(err)
				_, _ = fw.Write([]byte(f.value))
			}
			is.NoErr(w.Close())
			form, err := upload.Read(request(b.Bytes(), w.FormDataContentType()), upload.Limits{MaxFileSize: 100, MaxRequestSize: 10000}, guard)
			if tt.err != nil {
				is.True(errors.Is(err, tt.err))
				return
			}
			is.NoErr(err)
			f, ok := form.File("file")
			is.True(ok)
			is.Equal(string(f.Data), "%PDF")
		})
	}
}

// A refused token ends the read: the file after it is not taken in.
func TestReadGuardBeforeTheFile(t *testing.T) {
	is := is.New(t)
	pr, pw := io.Pipe()
	r, _ := http.NewRequest(http.MethodPost, "/", pr)
	r.Header.Set("Content-Type", "multipart/form-data; boundary=b")
	go func() {
		_, _ = pw.Write([]byte("--b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nforged\r\n--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n"))
		// The document would follow; the refusal comes without it.
	}()
	errWrong := errors.New("wrong token")
	_, err := upload.Read(r, upload.Limits{MaxFileSize: 20 << 20, MaxRequestSize: 40 << 20},
		upload.Guard{Field: "csrf", Check: func(string) error { return errWrong }})
	is.Equal(err, errWrong)
	pw.Close()
}
