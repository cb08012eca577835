package xades_test

import (
	"context"
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/xades"
	"github.com/svc-dss/dss/fixtures/pki"
	fxades "github.com/svc-dss/dss/fixtures/xades"
	"github.com/svc-dss/dss/ports"
)

// TestSignatureValueDigest: the evidence names the signature as a
// Signature Validation Token does, by its decoded ds:SignatureValue
// (the token takes its SHA-256).
func TestSignatureValueDigest(t *testing.T) {
	is := is.New(t)
	p, err := pki.New("http://127.0.0.1:9") // in process: never asked
	is.NoErr(err)
	content := []byte("a contract\n")
	signed, err := fxades.Sign(content, fxades.Options{PKI: p, Signer: p.SignerRSA, Level: fxades.B, Packaging: fxades.Detached,
		SigningTime: time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)})
	is.NoErr(err)
	sigs, err := xades.NewReader().Read(context.Background(), ports.Document{Name: "signature.xml", Data: signed,
		Detached: []ports.Detached{{Name: fxades.DefaultDocumentName, Data: content}}})
	is.NoErr(err)
	is.Equal(len(sigs), 1)
	m := regexp.MustCompile(`(?s)<ds:SignatureValue[^>]*>(.*?)</ds:SignatureValue>`).FindSubmatch(signed)
	is.True(m != nil)
	value, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(m[1])), ""))
	is.NoErr(err)
	is.Equal(sigs[0].SignatureValue, value)
}
