package upload_test

import (
	"bytes"
	"mime/multipart"
	"testing"

	"github.com/svc-dss/dss/servers/internal/upload"
)

// BenchmarkRead measures parsing an upload at the spec's per-file limit
// (20 MB), which every validation request pays before any signature work.
func BenchmarkRead(b *testing.B) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, _ := w.CreateFormFile("file", "large.pdf")
	_, _ = fw.Write(bytes.Repeat([]byte("%PDF-1.7 stream "), 20<<20/16))
	_ = w.Close()
	raw, ct := body.Bytes(), w.FormDataContentType()
	l := upload.Limits{MaxFileSize: 20 << 20, MaxRequestSize: 40 << 20}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := upload.Read(request(raw, ct), l, upload.Guard{}); err != nil {
			b.Fatal(err)
		}
	}
}
