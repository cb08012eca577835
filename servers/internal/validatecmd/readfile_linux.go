package validatecmd

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// hugePage is the size of a transparent huge page on amd64 and arm64.
const hugePage = 2 << 20

// readFile returns the contents of the file at path and the function
// that releases them. The validate command reads a large document into
// anonymous memory that may be backed by transparent huge pages: read
// into the Go heap, 10 MiB cost a page fault per 4 KiB page (about 3,400
// in all, 78 ms against 35), and mapped from the file, a translation per
// page while it was hashed (42 ms); see
// docs/decisions/0019-validate-command.md. The bytes must not be used
// after release.
func readFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() {
		// Of unknown size (a pipe, a device): read to the end.
		b, err := io.ReadAll(f)
		return b, func() error { return nil }, err
	}
	if size != int64(int(size)) {
		return nil, nil, fmt.Errorf("%s: %d bytes is too large to read", path, size)
	}
	if size < hugePage {
		b := make([]byte, size)
		if _, err := io.ReadFull(f, b); err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", path, err)
		}
		return b, func() error { return nil }, nil
	}
	n := (int(size) + hugePage - 1) &^ (hugePage - 1)
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	// Advice only: without transparent huge pages the read still works.
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE)
	release := func() error { return syscall.Munmap(mem) }
	if _, err := io.ReadFull(f, mem[:size]); err != nil {
		release()
		return nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return mem[:size:size], release, nil
}
