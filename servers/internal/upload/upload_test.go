package upload_test

import (
	"bytes"
	"errors"
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

	form, err := upload.Read(request(b.Bytes(), w.FormDataContentType()), upload.Limits{MaxFileSize: 100, MaxRequestSize: 10000})
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
	_, err := upload.Read(request(b.Bytes(), w.FormDataContentType()), upload.Limits{MaxFileSize: 100, MaxRequestSize: 1 << 20})
	is.True(errors.Is(err, upload.ErrMalformed))
	is.Equal(err.Error(), "malformed multipart upload: more than 100 parts")
}

func TestReadRefusesLongValues(t *testing.T) {
	is := is.New(t)
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	is.NoErr(w.WriteField("note", strings.Repeat("x", 64<<10+1)))
	is.NoErr(w.Close())
	_, err := upload.Read(request(b.Bytes(), w.FormDataContentType()), upload.Limits{MaxFileSize: 100, MaxRequestSize: 1 << 20})
	is.Equal(err.Error(), `malformed multipart upload: field "note" is longer than 65536 bytes`)
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
		form, err := upload.Read(request(body, "multipart/form-data; boundary=fuzzboundary"), l)
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

// TestManySmallPartsReserveLittle guards the pre-sizing of the document
// buffer: a request declaring a large length but made of many small file
// parts must not reserve the file limit for each part.
func TestManySmallPartsReserveLittle(t *testing.T) {
	is := is.New(t)
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for range 90 {
		fw, _ := w.CreateFormFile("file", "a.pdf")
		_, _ = fw.Write([]byte("x"))
	}
	is.NoErr(w.Close())
	r := request(b.Bytes(), w.FormDataContentType())
	r.ContentLength = 40 << 20 // a large declared length

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	form, err := upload.Read(r, upload.Limits{MaxFileSize: 20 << 20, MaxRequestSize: 40 << 20})
	runtime.ReadMemStats(&after)
	is.NoErr(err)
	is.Equal(len(form.Files["file"]), 90)
	is.True(after.TotalAlloc-before.TotalAlloc < 25<<20) // one document buffer at most, not 90
}
