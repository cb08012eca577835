package egress_test

import (
	"context"
	"crypto"
	"crypto/sha256"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/formats/tsp"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestTSA: the fixture unit grants a token over the digest asked for,
// signed by its TSA certificate.
func TestTSA(t *testing.T) {
	is := is.New(t)
	srv := pki.Start(t)
	client, err := egress.NewClient(egress.Options{})
	is.NoErr(err)
	digest := sha256.Sum256([]byte("a signature value"))
	raw, err := egress.NewTSA(client, srv.TSAURL()).Timestamp(context.Background(), crypto.SHA256, digest[:])
	is.NoErr(err)
	tok, err := tsp.Parse(raw)
	is.NoErr(err)
	is.NoErr(tok.CheckImprintDigest(digest[:]))
	signer, err := tok.Verify(tsp.VerifyOptions{})
	is.NoErr(err)
	is.True(signer.Equal(srv.TSA.Certificate))
}

// TestTSAFails: a unit that answers otherwise is an error naming it.
func TestTSAFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	is := is.New(t)
	client, err := egress.NewClient(egress.Options{})
	is.NoErr(err)
	digest := sha256.Sum256(nil)
	_, err = egress.NewTSA(client, srv.URL+"/tsa").Timestamp(context.Background(), crypto.SHA256, digest[:])
	is.Equal(err.Error(), "egress: TSA "+srv.URL+"/tsa: HTTP 503")
}
