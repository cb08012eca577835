package validatecmd

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/matryer/is"
)

// TestReadFile: the validate command's reader returns exactly the file's
// bytes, whether they fit a page, cross the huge-page threshold or come
// from a pipe, and a missing file is the operating system's error.
func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, size := range []int{0, 1, 4096, 2<<20 - 1, 2 << 20, 2<<20 + 1, 5<<20 + 12345} {
		is := is.New(t)
		want := make([]byte, size)
		rand.Read(want)
		path := filepath.Join(dir, "f")
		is.NoErr(os.WriteFile(path, want, 0o600))
		got, release, err := readFile(path)
		is.NoErr(err)
		is.Equal(len(got), size)
		is.True(bytes.Equal(got, want)) // content read back
		is.NoErr(release())
	}

	is := is.New(t)
	_, _, err := readFile(filepath.Join(dir, "missing"))
	is.True(errors.Is(err, fs.ErrNotExist))

	// A pipe has no size: it is read to its end.
	r, w, err := os.Pipe()
	is.NoErr(err)
	go func() { w.Write([]byte("through a pipe")); w.Close() }()
	got, release, err := readFile("/dev/fd/" + strconv.Itoa(int(r.Fd())))
	is.NoErr(err)
	is.Equal(string(got), "through a pipe")
	is.NoErr(release())
	r.Close()
}
