package egress_test

import (
	"context"
	"crypto/x509"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/formats/crl"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestFetchCRLFixture reads the fixture's v2 CRLs before and after the
// revocation of the revoked signer.
func TestFetchCRLFixture(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		clock   time.Time
		ca      func(*pki.Server) *pki.Identity
		revoked []int64
	}{
		{name: "intermediate after the revocation", clock: pki.ReferenceTime, ca: func(s *pki.Server) *pki.Identity { return s.Intermediate }, revoked: []int64{0x1007}},
		{name: "intermediate before the revocation", clock: pki.RevocationTime.Add(-time.Second), ca: func(s *pki.Server) *pki.Identity { return s.Intermediate }},
		{name: "root", clock: pki.ReferenceTime, ca: func(s *pki.Server) *pki.Identity { return s.Root }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			srv := pki.Start(t)
			srv.SetClock(func() time.Time { return tt.clock })
			ca := tt.ca(srv)
			l, err := egress.FetchCRL(context.Background(), localClient(t), srv.CRLURL(ca))
			is.NoErr(err)
			is.NoErr(l.CheckSignatureFrom(ca.Certificate))

			is.Equal(l.Version, 2)
			is.Equal(l.RawIssuer, ca.Certificate.RawSubject)
			is.True(l.ThisUpdate.Equal(tt.clock.Truncate(time.Second)))
			is.True(l.NextUpdate.Equal(tt.clock.Truncate(time.Second).Add(24 * time.Hour)))
			is.Equal(l.Number, big.NewInt(tt.clock.Unix()))
			is.Equal(l.DeltaCRLIndicator, nil)
			is.Equal(l.IssuingDistributionPoint, nil)
			is.Equal(l.AuthorityKeyID, ca.Certificate.SubjectKeyId)
			is.Equal(l.SignatureAlgorithm, x509.SHA256WithRSA)
			is.Equal(len(l.UnhandledCriticalExtensions), 0)
			is.Equal(len(l.Entries), len(tt.revoked))
			for _, s := range tt.revoked {
				revoked, at, reason := l.Status(big.NewInt(s))
				is.True(revoked)
				is.True(at.Equal(pki.RevocationTime))
				is.Equal(reason, crl.ReasonKeyCompromise)
			}
			revoked, at, _ := l.Status(srv.SignerRSA.Certificate.SerialNumber)
			is.True(!revoked)
			is.True(at.IsZero())
		})
	}
}

func TestFetchCRLUnavailable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/garbage.crl" {
			w.Write([]byte("garbage"))
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	guarded, err := egress.NewCertClient(egress.Options{})
	if err != nil {
		t.Fatal(err)
	}
	is := is.New(t)
	_, err = egress.FetchCRL(context.Background(), localClient(t), srv.URL+"/missing.crl")
	is.True(errors.Is(err, egress.ErrCRLUnavailable))
	_, err = egress.FetchCRL(context.Background(), guarded, srv.URL+"/garbage.crl")
	is.True(errors.Is(err, egress.ErrCRLUnavailable))
	is.True(egress.IsBlocked(err))
	_, err = egress.FetchCRL(context.Background(), localClient(t), srv.URL+"/garbage.crl")
	is.True(errors.Is(err, crl.ErrMalformed))
	is.True(!errors.Is(err, egress.ErrCRLUnavailable))
}
