package privateca_test

import (
	"context"
	"encoding/pem"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/privateca"
	"github.com/svc-dss/dss/fixtures/pki"
)

func TestLoad(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, err := pki.New("http://127.0.0.1:1")
	is.NoErr(err)
	dir := t.TempDir()
	pemOf := func(ders ...[]byte) []byte {
		var b []byte
		for _, d := range ders {
			b = append(b, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: d})...)
		}
		return b
	}
	files := map[string][]byte{
		"a-root.pem":    pemOf(p.Root.DER),
		"b-bundle.crt":  append(pemOf(p.Intermediate.DER, p.TSA.DER), []byte("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")...),
		"c-single.der":  p.OCSPResponder.DER,
		"d-concat.cer":  append(append([]byte{}, p.SignerRSA.DER...), p.SignerECDSA.DER...),
		"e-broken.pem":  []byte("-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n"),
		"f-garbage.der": []byte("garbage"),
		"g-readme.txt":  []byte("ignored"),
		"h-UPPER.PEM":   pemOf(p.Expired.DER),
	}
	for name, data := range files {
		is.NoErr(os.WriteFile(filepath.Join(dir, name), data, 0o600))
	}
	is.NoErr(os.Mkdir(filepath.Join(dir, "sub.pem"), 0o700)) // a directory is not a file

	var logs strings.Builder
	anchors, skipped, err := privateca.Load(context.Background(), dir, slog.New(slog.NewTextHandler(&logs, nil)))
	is.NoErr(err)
	var got []string
	for _, a := range anchors {
		got = append(got, a.File+" "+a.Subject)
	}
	is.Equal(got, []string{
		"a-root.pem " + p.Root.Certificate.Subject.String(),
		"b-bundle.crt " + p.Intermediate.Certificate.Subject.String(),
		"b-bundle.crt " + p.TSA.Certificate.Subject.String(),
		"c-single.der " + p.OCSPResponder.Certificate.Subject.String(),
		"d-concat.cer " + p.SignerRSA.Certificate.Subject.String(),
		"d-concat.cer " + p.SignerECDSA.Certificate.Subject.String(),
		"h-UPPER.PEM " + p.Expired.Certificate.Subject.String(),
	})
	is.Equal(skipped, []string{"e-broken.pem", "f-garbage.der"})
	is.True(strings.Contains(logs.String(), "e-broken.pem"))
	is.True(strings.Contains(logs.String(), "f-garbage.der"))

	// Validity is evaluated at read time, not at load.
	expired := anchors[len(anchors)-1]
	is.True(expired.Expired(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)))
	is.True(!anchors[0].Expired(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)))
}

func TestLoadMissingDirectory(t *testing.T) {
	t.Parallel()
	_, _, err := privateca.Load(context.Background(), filepath.Join(t.TempDir(), "none"), slog.Default())
	is.New(t).True(err != nil)
}
