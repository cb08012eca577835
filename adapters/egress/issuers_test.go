package egress_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
)

func TestIssuerSource(t *testing.T) {
	t.Parallel()
	srv := startPKI(t, beforeRevocation)

	t.Run("AIA finds the intermediate, cached", func(t *testing.T) {
		is := is.New(t)
		c := newCounter(t, srv.URL)
		src := egress.NewIssuerSource(localClient(t), nil, false)
		cert := c.via(srv.SignerRSA.Certificate, srv.URL)
		for range 2 {
			got, err := src.Issuers(t.Context(), cert)
			is.NoErr(err)
			is.Equal(len(got), 1)
			is.True(got[0].Equal(srv.Intermediate.Certificate))
		}
		is.Equal(c.n("/ca/intermediate.crt"), 1)
	})

	t.Run("direct fixture URL", func(t *testing.T) {
		is := is.New(t)
		src := egress.NewIssuerSource(localClient(t), nil, false)
		got, err := src.Issuers(t.Context(), srv.SignerRSA.Certificate)
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.True(got[0].Equal(srv.Intermediate.Certificate))
	})

	t.Run("wrong subject dropped", func(t *testing.T) {
		is := is.New(t)
		cert := *srv.SignerRSA.Certificate
		cert.IssuingCertificateURL = []string{srv.CertURL(srv.Root)}
		src := egress.NewIssuerSource(localClient(t), nil, false)
		got, err := src.Issuers(t.Context(), &cert)
		is.NoErr(err)
		is.Equal(len(got), 0)
	})

	t.Run("offline", func(t *testing.T) {
		is := is.New(t)
		c := newCounter(t, srv.URL)
		src := egress.NewIssuerSource(localClient(t), nil, true)
		got, err := src.Issuers(t.Context(), c.via(srv.SignerRSA.Certificate, srv.URL))
		is.NoErr(err)
		is.Equal(len(got), 0)
		is.Equal(c.total(), 0)
	})

	t.Run("guard refuses loopback", func(t *testing.T) {
		is := is.New(t)
		c := newCounter(t, srv.URL)
		guarded, err := egress.NewCertClient(egress.Options{})
		is.NoErr(err)
		logger, logs := newLogger()
		src := egress.NewIssuerSource(guarded, logger, false)
		got, err := src.Issuers(t.Context(), c.via(srv.SignerRSA.Certificate, srv.URL))
		is.NoErr(err)
		is.Equal(len(got), 0)
		is.Equal(c.total(), 0)
		is.True(strings.Contains(logs.String(), "level=WARN"))
		is.True(strings.Contains(logs.String(), "blocked=true"))
	})

	t.Run("cancelled", func(t *testing.T) {
		is := is.New(t)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		src := egress.NewIssuerSource(localClient(t), nil, false)
		_, err := src.Issuers(ctx, srv.SignerRSA.Certificate)
		is.True(errors.Is(err, context.Canceled))
	})
}
