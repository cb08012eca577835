package validation_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/matryer/is"

	registry "github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/validationtest"
	"github.com/svc-dss/dss/ports"
)

// manyReader reads a document of n signatures and then ends the
// validation's context (stop), as a deadline would while the readers
// were at work.
type manyReader struct {
	n    int
	stop func()
}

func (r manyReader) Read(_ context.Context, _ ports.Document) ([]ades.Signature, error) {
	sigs := make([]ades.Signature, r.n)
	for i := range sigs {
		sigs[i] = ades.Signature{ID: fmt.Sprintf("many-%d", i), Format: ades.XAdES, Level: ades.LevelB,
			DataObjects: []ades.DataObject{{Name: "content", Found: true, Intact: true, DigestAlgorithm: "SHA-256"}},
			Value:       ades.Check{Done: true, Valid: true, Algorithm: "ECDSA-SHA256"}}
	}
	if r.stop != nil {
		r.stop()
	}
	return sigs, nil
}

// A validation whose context ends while it runs starts no more
// signatures: it returns the context's error, once, rather than a
// verdict computed past its deadline (issue 25).
func TestValidateHonoursTheContext(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		end  func(context.Context) (context.Context, func())
		want error
	}{
		{"cancelled", func(ctx context.Context) (context.Context, func()) { return context.WithCancel(ctx) }, context.Canceled},
		{"deadline", func(ctx context.Context) (context.Context, func()) {
			ctx, cancel := context.WithDeadline(ctx, time.Unix(0, 0))
			return ctx, cancel
		}, context.DeadlineExceeded},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			ctx, stop := c.end(t.Context())
			defer stop()
			many := registry.Format{Name: "MANY", Detect: func(b []byte) bool { return bytes.HasPrefix(b, []byte("MANY")) },
				Reader: manyReader{n: 40, stop: stop}}
			v := offlineValidator(t, validation.WithRegistry(registry.New(many)))
			res, err := v.Validate(ctx, validation.Document{Name: "many.sig", Data: []byte("MANY")})
			is.True(res == nil)
			is.True(errors.Is(err, c.want))
			is.Equal(err.Error(), "validation stopped: "+c.want.Error()) // once, not forty times
		})
	}

	// The same document with a live context is validated whole.
	is := is.New(t)
	many := registry.Format{Name: "MANY", Detect: func(b []byte) bool { return bytes.HasPrefix(b, []byte("MANY")) }, Reader: manyReader{n: 40}}
	v := offlineValidator(t, validation.WithRegistry(registry.New(many)))
	res, err := v.Validate(t.Context(), validation.Document{Name: "many.sig", Data: []byte("MANY")})
	is.NoErr(err)
	is.Equal(res.Summary.SignatureCount, 40)
}

// Every reader of the registry stops at the context: given a document of
// its format and a context that has ended, it returns the context's error
// rather than reading on (issue 25: the readers check it between
// signatures, the loops that can be long), and so does the validation of
// the document.
func TestReadersHonourTheContext(t *testing.T) {
	t.Parallel()
	kit := validationtest.Start(t)
	v := offlineValidator(t, kit.Options()...)
	for _, f := range validationtest.Formats() {
		t.Run(string(f), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			s := validationtest.Signature{Level: cades.LTA}
			if f == validationtest.TST {
				s = validationtest.Signature{} // a time-stamp has no level
			}
			doc, err := kit.Sign(f, s)
			is.NoErr(err)
			format, ok := registry.Default().Detect(doc.Data)
			is.True(ok)
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			in := ports.Document{Name: doc.Name, Data: doc.Data}
			for _, p := range doc.Detached {
				in.Detached = append(in.Detached, ports.Detached{Name: p.Name, Data: p.Data})
			}
			_, err = format.Reader.Read(ctx, in)
			is.True(errors.Is(err, context.Canceled)) // the reader
			_, err = v.Validate(ctx, doc)
			is.True(errors.Is(err, context.Canceled)) // the validation

			res, err := v.Validate(t.Context(), doc) // the same document, on time
			is.NoErr(err)
			is.True(res.Summary.SignatureCount+len(res.Summary.Timestamps) > 0)
		})
	}
}
