// Package formats is the registry of the signature formats the service
// reads: the one place a format plugs in. A format is a package under
// adapters/formats that reads it (a ports.DocumentReader and how its
// documents are recognised) and one entry in [Default]; the validator,
// its API, its command and the error for an upload of no known format
// take the formats from the registry.
package formats

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/svc-dss/dss/adapters/formats/asic"
	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/jades"
	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/adapters/formats/timestamp"
	"github.com/svc-dss/dss/adapters/formats/xades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/ports"
)

// Default is the registry of the formats this service reads, in the
// order they are tried: the only list of readers in the module (a test
// of this package makes sure).
func Default() *Registry {
	return New(
		Format{Name: "CAdES", Detect: cades.Detect, Reader: cades.NewReader()},
		Format{Name: "PAdES", Detect: pades.Detect, Reader: pades.NewReader()},
		Format{Name: "XAdES", Detect: xades.Detect, Reader: xades.NewReader()},
		// A container's signatures are CAdES and XAdES ones: read by
		// their readers.
		Format{Name: "ASiC", Detect: asic.Detect, Reader: asic.NewReader(cades.NewReader(), xades.NewReader())},
		Format{Name: "JAdES", Detect: jades.Detect, Reader: jades.NewReader()},
		// A bare RFC 3161 time-stamp token or response, over detached
		// data: a time-stamp entry, no signature.
		Format{Name: "TST", Detect: timestamp.Detect, Reader: timestamp.NewReader()},
	)
}

// A Format is one signature format the service reads.
type Format struct {
	// Name names the format to people: the error for an upload of no
	// format the service reads lists the names, "CAdES, PAdES, XAdES, ASiC, JAdES, TST".
	Name string
	// Detect reports whether data is of the format, from its first bytes
	// (a magic number, a header), without reading it: data it claims
	// goes to Reader, which may still find it unreadable. It must claim
	// all the data Reader reads.
	Detect func(data []byte) bool
	// Reader reads the documents of the format.
	Reader ports.DocumentReader
}

// A Registry is the formats a validator reads, in the order they are
// tried: the first whose Detect claims a document reads it. The zero
// value reads nothing; New builds one.
type Registry struct {
	formats []Format
}

// New returns the registry of formats, tried in this order. It panics on
// a format without a name, a detector or a reader, and on a name given
// twice: a wiring mistake, found at start-up.
func New(formats ...Format) *Registry {
	for i, f := range formats {
		if f.Name == "" || f.Detect == nil || f.Reader == nil {
			panic(fmt.Sprintf("formats: format %d (%q) needs a name, a detector and a reader", i+1, f.Name))
		}
		if slices.ContainsFunc(formats[:i], func(g Format) bool { return g.Name == f.Name }) {
			panic(fmt.Sprintf("formats: format %q registered twice", f.Name))
		}
	}
	return &Registry{formats: slices.Clone(formats)}
}

// With returns a registry of r's formats followed by more: for tests
// that read a format of their own besides the service's.
func (r *Registry) With(more ...Format) *Registry {
	return New(slices.Concat(r.formats, more)...)
}

// Only returns a registry of r's formats that names names, in any case,
// kept in r's order: for a validator that reads a subset. A name r does
// not register is an error that lists r's formats.
func (r *Registry) Only(names ...string) (*Registry, error) {
	keep := make([]bool, len(r.formats))
	for _, name := range names {
		i := slices.IndexFunc(r.formats, func(f Format) bool { return strings.EqualFold(f.Name, name) })
		if i < 0 {
			return nil, fmt.Errorf("no format %q is registered (%s)", name, r.List())
		}
		keep[i] = true
	}
	var out []Format
	for i, f := range r.formats {
		if keep[i] {
			out = append(out, f)
		}
	}
	return New(out...), nil
}

// Formats returns the formats in the order they are tried.
func (r *Registry) Formats() []Format { return slices.Clone(r.formats) }

// Names returns the formats' names in the order they are tried.
func (r *Registry) Names() []string {
	names := make([]string, len(r.formats))
	for i, f := range r.formats {
		names[i] = f.Name
	}
	return names
}

// List is the formats' names for a sentence: "CAdES, PAdES, XAdES, ASiC, JAdES, TST".
func (r *Registry) List() string { return strings.Join(r.Names(), ", ") }

// Detect returns the first format that claims data; false when none
// does: data is no signature format the registry reads.
func (r *Registry) Detect(data []byte) (Format, bool) {
	for _, f := range r.formats {
		if f.Detect(data) {
			return f, true
		}
	}
	return Format{}, false
}

// Readers returns the formats' readers in the order they are tried, each
// behind its format's Detect: a document it does not claim gives an
// error wrapping ports.ErrNotThisFormat without being read. Each is a
// ports.ContentsReader: one whose reader is not reads its signatures
// alone.
func (r *Registry) Readers() []ports.DocumentReader {
	readers := make([]ports.DocumentReader, len(r.formats))
	for i, f := range r.formats {
		readers[i] = detecting(f)
	}
	return readers
}

// detecting is a format's reader behind its detector.
type detecting Format

func (d detecting) Read(ctx context.Context, doc ports.Document) ([]ades.Signature, error) {
	if !d.Detect(doc.Data) {
		return nil, fmt.Errorf("%w: not %s", ports.ErrNotThisFormat, d.Name)
	}
	return d.Reader.Read(ctx, doc)
}

func (d detecting) ReadContents(ctx context.Context, doc ports.Document) (ades.Contents, error) {
	if !d.Detect(doc.Data) {
		return ades.Contents{}, fmt.Errorf("%w: not %s", ports.ErrNotThisFormat, d.Name)
	}
	if r, ok := d.Reader.(ports.ContentsReader); ok {
		return r.ReadContents(ctx, doc)
	}
	sigs, err := d.Reader.Read(ctx, doc)
	return ades.Contents{Signatures: sigs}, err
}
