package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// fakeReader reads documents that start with "FAKE" as one signature
// without its certificate; "FAKE broken" it cannot read.
type fakeReader struct{}

func (fakeReader) Read(_ context.Context, doc ports.Document) ([]ades.Signature, error) {
	if bytes.HasPrefix(doc.Data, []byte("FAKE broken")) {
		return nil, fmt.Errorf("%w: fake: broken", ports.ErrUnreadable)
	}
	return []ades.Signature{{ID: "fake-1", Format: ades.XAdES, Level: ades.LevelB,
		DataObjects: []ades.DataObject{{Name: "content", Found: true, Intact: true, DigestAlgorithm: "SHA-256"}},
		Value:       ades.Check{Done: true, Valid: true, Algorithm: "ECDSA-SHA256"}}}, nil
}

// withFake is the service's formats and a format of the test's own.
func withFake() *formats.Registry {
	return formats.Default().With(formats.Format{
		Name: "FAKE", Detect: func(data []byte) bool { return bytes.HasPrefix(data, []byte("FAKE")) }, Reader: fakeReader{},
	})
}

// TestRegisteredFormat (issue 17): a format registered in a test, and
// nowhere else, is read by the API and the validate command, and the
// errors for an upload of no format and of an unreadable one name it.
func TestRegisteredFormat(t *testing.T) {
	t.Parallel()
	reg := withFake()
	runFake := func(ctx context.Context, args, environ []string, stdout, stderr io.Writer, ready func(net.Addr)) int {
		return runFormats(ctx, reg, args, environ, stdout, stderr, ready)
	}

	t.Run("API", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		s := servertest.Run(t, runFake, nil, append(offline(t), "SVC_DSS_VALIDATOR_PERMIT_ALL=true"))
		res, body := post(t, s.URL, map[string][]byte{"file": []byte("FAKE signature")})
		is.Equal(res.StatusCode, 200)
		var sum verdict.ValidationSummary
		is.NoErr(json.Unmarshal(body, &sum))
		is.Equal(sum.SignatureCount, 1)
		is.Equal(sum.Signatures[0].SignatureID, "fake-1")
		is.Equal(sum.Signatures[0].SignatureFormat, "XAdES_BASELINE_B")

		for data, detail := range map[string]string{
			"hello, world": "unreadable document: not a signature format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST, FAKE)",
			"FAKE broken":  "unreadable document: it is in a format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST, FAKE), but its structure cannot be read",
		} {
			res, body = post(t, s.URL, map[string][]byte{"file": []byte(data)})
			is.Equal(res.StatusCode, 400)
			var p servertest.Problem
			is.NoErr(json.Unmarshal(body, &p))
			is.Equal(p.Type, "urn:svc-dss:problem:unreadable-upload")
			is.Equal(p.Detail, detail)
		}
	})

	t.Run("command", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		dir := t.TempDir()
		validate := func(data string) (int, string, string) {
			file := write(t, dir, "document.fake", []byte(data))
			var out, errOut bytes.Buffer
			code := runFake(context.Background(), []string{"validate", file, "--offline"}, offline(t), &out, &errOut, nil)
			return code, out.String(), errOut.String()
		}
		code, out, logs := validate("FAKE signature")
		is.Equal(code, 0)
		var sum verdict.ValidationSummary
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatalf("%v\n%s", err, logs)
		}
		is.Equal(sum.DocumentName, "document.fake")
		is.Equal(sum.Signatures[0].SignatureID, "fake-1")

		code, out, logs = validate("hello, world")
		is.Equal(code, 1)
		is.Equal(out, "")
		is.True(bytes.Contains([]byte(logs), []byte("validate: unreadable document: not a signature format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST, FAKE)")))
	})
}
