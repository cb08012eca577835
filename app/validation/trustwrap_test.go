package validation_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/fixtures/tl"
	"github.com/svc-dss/dss/ports"
)

// holds reports whether any list of snap yields der as an anchor.
func holds(snap *trust.Snapshot, der []byte) bool {
	for _, l := range snap.Lists {
		if l.List == nil {
			continue
		}
		for _, p := range l.List.Providers {
			for _, s := range p.Services {
				for _, c := range s.Identity.Certificates {
					if bytes.Equal(c, der) {
						return true
					}
				}
			}
		}
	}
	return false
}

// newEnvSignedByID is newEnv with DE's list signed by a reference to its
// root by Id, the form wrapping works on; it returns the published bytes.
func newEnvSignedByID(t *testing.T) (*env, []byte) {
	t.Helper()
	e := newEnv(t)
	spec := e.eco.Spec("DE")
	spec.SignRootByID = true
	genuine, err := tl.Sign(spec, e.eco.MemberSigner, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	e.eco.Publisher.Put(tl.MemberPath("DE"), genuine)
	return e, genuine
}

// A publisher (or anyone on the way) serves a signature-wrapped copy of a
// member list whose signature references its root by Id: the refresh
// refuses it, the previous good copy stays in use, the list reports
// itself not authenticated with the reason, the store is degraded, no
// service of the attacker reaches the snapshot, and the cache keeps the
// good copy across a restart.
func TestWrappedListIsRefusedOnRefresh(t *testing.T) {
	t.Parallel()
	for _, w := range tl.Wrappings {
		t.Run(w.String(), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			e, genuine := newEnvSignedByID(t)
			s := e.store(t, e.sources())
			s.Refresh(context.Background())
			good := list(e.status(s), "DE")
			is.Equal(good.Authenticity, "VALID")

			attacker := e.eco.Stranger.Certificate.Raw
			wrapped, err := tl.Wrap(genuine, attacker, w)
			is.NoErr(err)
			e.eco.Publisher.Put(tl.MemberPath("DE"), wrapped)
			e.clock.Advance(time.Hour)
			snap := s.Refresh(context.Background())
			td := e.status(s)
			de := list(td, "DE")
			is.True(de.Authenticity == "INVALID" || de.Authenticity == "INDETERMINATE")
			is.True(de.Refused != nil)
			is.Equal(*de.SequenceNumber, *good.SequenceNumber) // the good copy in use
			is.Equal(de.Anchors, good.Anchors)
			is.True(td.Degraded)
			is.True(!td.Current)
			is.True(!td.AnchorDataAuthenticated)
			is.True(!holds(snap, attacker)) // nothing of the attacker's in the store
			for _, l := range snap.Lists {
				if l.Territory == "DE" {
					is.Equal(l.Authenticity, trust.AuthValid) // the copy in use authenticated
				}
			}

			restarted := e.store(t, e.sources())
			snap = restarted.LoadCache(context.Background())
			de = list(e.status(restarted), "DE")
			is.Equal(de.Authenticity, "VALID")
			is.Equal(*de.SequenceNumber, *good.SequenceNumber)
			is.True(!holds(snap, attacker))
		})
	}
}

// A cache directory copied in from elsewhere holds a wrapped list: the
// start-up load refuses it, so nothing of it is in use.
func TestWrappedListInTheCacheIsRefused(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e, genuine := newEnvSignedByID(t)
	e.store(t, e.sources()).Refresh(context.Background()) // caches every list

	attacker := e.eco.Stranger.Certificate.Raw
	wrapped, err := tl.Wrap(genuine, attacker, tl.WrapPrefixedID)
	is.NoErr(err)
	writeCached(t, e, e.eco.Publisher.URL+tl.MemberPath("DE"), wrapped)

	s := e.store(t, e.sources())
	snap := s.LoadCache(context.Background())
	de := list(e.status(s), "DE")
	is.Equal(de.State, "NEVER_LOADED")
	is.Equal(de.Authenticity, "INDETERMINATE")
	is.Equal(de.Refused.Reason, "AMBIGUOUS_REFERENCE")
	is.True(!holds(snap, attacker))
}

// writeCached replaces what e's cache holds for url, as a copied cache
// directory would.
func writeCached(t *testing.T, e *env, url string, data []byte) {
	t.Helper()
	cache, err := tlcache.Open(e.cacheDir, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if err := cache.Store(context.Background(), url, data, ports.ListMeta{URL: url, Downloaded: e.clock.Now(), LastOnlineConfirmation: e.clock.Now()}); err != nil {
		t.Fatal(err)
	}
}

// A list the reader would refuse for its size is not downloaded whole
// either: four refreshes run at once.
func TestDownloadCapIsTheReadersLimit(t *testing.T) {
	if egress.MaxListBytes != trustlist.MaxInputBytes {
		t.Fatalf("egress.MaxListBytes = %d, trustlist.MaxInputBytes = %d", egress.MaxListBytes, trustlist.MaxInputBytes)
	}
}
