package egress_test

import (
	"context"
	"crypto/x509"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/matryer/is"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/fixtures/pki"
)

// certsOnly builds a degenerate PKCS #7 SignedData (RFC 5652) holding
// certs and no signers, as .p7c files are. extra is added to the
// certificate set as is, for choices other than certificates.
func certsOnly(extra []byte, certs ...[]byte) []byte {
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2})
		b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1Int64(1)
				b.AddASN1(cbasn1.SET, func(*cryptobyte.Builder) {})
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1})
				})
				b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
					for _, c := range certs {
						b.AddBytes(c)
					}
					b.AddBytes(extra)
				})
				b.AddASN1(cbasn1.SET, func(*cryptobyte.Builder) {})
			})
		})
	})
	return b.BytesOrPanic()
}

func pemOf(typ string, ders ...[]byte) []byte {
	var out []byte
	for _, d := range ders {
		out = append(out, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: d})...)
	}
	return out
}

func TestFetchCAIssuers(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://aia.test")
	if err != nil {
		t.Fatal(err)
	}
	inter, root := p.Intermediate.DER, p.Root.DER
	attrCert := []byte{0xa1, 0x03, 0x02, 0x01, 0x00} // [1] v1AttrCert, skipped
	bodies := map[string][]byte{
		"/der":        inter,
		"/pem":        append([]byte("issuer chain\n"), pemOf("CERTIFICATE", inter, root)...),
		"/p7c":        certsOnly(nil, inter, root),
		"/p7c-attr":   certsOnly(attrCert, inter),
		"/p7c.pem":    pemOf("PKCS7", certsOnly(nil, root, inter)),
		"/p7c-empty":  certsOnly(nil),
		"/pem-other":  pemOf("PRIVATE KEY", []byte{1, 2, 3}),
		"/garbage":    []byte("<html>moved</html>"),
		"/not-signed": []byte{0x30, 0x0b, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01},
		"/huge":       make([]byte, egress.MaxCAIssuersBytes+1),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := bodies[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	client := newCertClient(t, egress.Options{AllowPrivateNetworksUnsafe: true})

	tests := []struct {
		path     string
		want     [][]byte
		noCerts  bool // wraps ErrNoCertificates
		fetchErr bool // a *FetchError
	}{
		{path: "/der", want: [][]byte{inter}},
		{path: "/pem", want: [][]byte{inter, root}},
		{path: "/p7c", want: [][]byte{inter, root}},
		{path: "/p7c-attr", want: [][]byte{inter}},
		{path: "/p7c.pem", want: [][]byte{root, inter}},
		{path: "/p7c-empty", noCerts: true},
		{path: "/pem-other", noCerts: true},
		{path: "/garbage", noCerts: true},
		{path: "/not-signed", noCerts: true},
		{path: "/huge", fetchErr: true},
		{path: "/missing", fetchErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			certs, err := egress.FetchCAIssuers(context.Background(), client, srv.URL+tt.path)
			switch {
			case tt.fetchErr:
				is.True(egress.IsFetchError(err))
			case tt.noCerts:
				is.True(errors.Is(err, egress.ErrNoCertificates))
			default:
				is.NoErr(err)
				is.Equal(len(certs), len(tt.want))
				for i := range certs {
					is.Equal(certs[i].Raw, tt.want[i])
				}
			}
		})
	}
}

// TestFetchCAIssuersFromFixture follows a signer's AIA URL to its issuer.
func TestFetchCAIssuersFromFixture(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := pki.Start(t)
	signer := srv.SignerRSA.Certificate
	certs, err := egress.FetchCAIssuers(context.Background(), newCertClient(t, egress.Options{Timeout: 5 * time.Second, AllowPrivateNetworksUnsafe: true}), signer.IssuingCertificateURL[0])
	is.NoErr(err)
	is.Equal(len(certs), 1)
	is.NoErr(signer.CheckSignatureFrom(certs[0]))
}

func TestFetchCAIssuersBlocked(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := pki.Start(t)
	client := newCertClient(t, egress.Options{})
	_, err := egress.FetchCAIssuers(context.Background(), client, srv.CertURL(srv.Intermediate))
	is.True(egress.IsFetchError(err))
	is.True(egress.IsBlocked(err))
}

func TestParseCertificatesLimits(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, err := pki.New("http://aia.test")
	is.NoErr(err)
	many := make([][]byte, egress.MaxCAIssuersCerts+1)
	for i := range many {
		many[i] = p.Root.DER
	}
	_, err = egress.ParseCertificates(certsOnly(nil, many...))
	is.True(errors.Is(err, egress.ErrNoCertificates))
	certs, err := egress.ParseCertificates(certsOnly(nil, many[1:]...))
	is.NoErr(err)
	is.Equal(len(certs), egress.MaxCAIssuersCerts)
	_, err = x509.ParseCertificate(certs[0].Raw)
	is.NoErr(err)
}
