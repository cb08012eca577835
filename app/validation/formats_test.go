package validation_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	registry "github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// fakeFormat is a format of the test's own: documents that start with
// "FAKE" hold one signature, without its certificate; "FAKE broken" is
// one its reader cannot read.
var fakeFormat = registry.Format{
	Name:   "FAKE",
	Detect: func(data []byte) bool { return bytes.HasPrefix(data, []byte("FAKE")) },
	Reader: fakeReader{},
}

type fakeReader struct{}

func (fakeReader) Read(_ context.Context, doc ports.Document) ([]ades.Signature, error) {
	if bytes.HasPrefix(doc.Data, []byte("FAKE broken")) {
		return nil, fmt.Errorf("%w: fake: %s is broken", ports.ErrUnreadable, doc.Name)
	}
	return []ades.Signature{{ID: "fake-1", Format: ades.XAdES, Level: ades.LevelB,
		DataObjects: []ades.DataObject{{Name: "content", Found: true, Intact: true, DigestAlgorithm: "SHA-256"}},
		Value:       ades.Check{Done: true, Valid: true, Algorithm: "ECDSA-SHA256"}}}, nil
}

// offlineValidator is a validator without trusted lists or network,
// with opts.
func offlineValidator(t *testing.T, opts ...validation.Option) *validation.Validator {
	t.Helper()
	v, err := validation.New(context.Background(), append([]validation.Option{validation.Offline()}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestValidatorReadsTheRegisteredFormats (issue 17): a format registered
// with WithFormats is read, and the errors for an upload of no format and
// for one its reader cannot read name it with the others; nothing else
// knows of it.
func TestValidatorReadsTheRegisteredFormats(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	v := offlineValidator(t, validation.WithRegistry(registry.Default().With(fakeFormat)))

	sum, err := validate(v, validation.Document{Name: "a.fake", Data: []byte("FAKE signature")}, time.Time{})
	is.NoErr(err)
	is.Equal(sum.SignatureCount, 1)
	is.Equal(sum.Signatures[0].SignatureID, "fake-1")
	is.Equal(sum.Signatures[0].SignatureFormat, "XAdES_BASELINE_B")
	is.Equal(*sum.Signatures[0].SubIndication, verdict.SubNoSigningCertificateFound)

	_, err = validate(v, validation.Document{Name: "a.txt", Data: []byte("hello, world")}, time.Time{})
	is.True(errors.Is(err, validation.ErrUnreadable))
	is.Equal(err.Error(), "unreadable document: not a signature format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST, FAKE)")

	_, err = validate(v, validation.Document{Name: "b.fake", Data: []byte("FAKE broken")}, time.Time{})
	u, ok := errors.AsType[*validation.UnreadableError](err)
	is.True(ok)
	is.Equal(u.Reason(), "unreadable document: it is in a format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST, FAKE), but its structure cannot be read")
	is.Equal(err.Error(), "unreadable document: fake: b.fake is broken")

	// A registry of the fake alone reads no PDF.
	v = offlineValidator(t, validation.WithRegistry(registry.New(fakeFormat)))
	_, err = validate(v, validation.Document{Name: "a.pdf", Data: []byte("%PDF-1.7\n")}, time.Time{})
	is.Equal(err.Error(), "unreadable document: not a signature format this service reads (FAKE)")
}

// TestAPIDocsNameTheRegisteredFormats: docs/validate-api.md quotes the
// error for an upload of no format as the service writes it from the
// registry.
func TestAPIDocsNameTheRegisteredFormats(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	v := offlineValidator(t)
	_, err := validate(v, validation.Document{Name: "a.txt", Data: []byte("hello, world")}, time.Time{})
	is.True(err != nil)
	doc, rerr := os.ReadFile("../../docs/validate-api.md")
	is.NoErr(rerr)
	if !strings.Contains(string(doc), "`"+err.Error()+"`") {
		t.Errorf("docs/validate-api.md does not quote the error %q: update it from the registry (adapters/formats)", err)
	}
	is.Equal((&validation.UnreadableError{Err: err}).Reason(), "unreadable document: it is in a format this service reads ("+registry.Default().List()+"), but its structure cannot be read")
}
