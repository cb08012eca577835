package validation_test

import (
	"context"
	"crypto/x509"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
)

// t0 is when the fixture lists are issued (an hour before) and first
// fetched.
var t0 = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

var thresholds = freshness.Thresholds{WarnAfter: 7 * 24 * time.Hour, FailAfter: 30 * 24 * time.Hour, FailureThreshold: 3}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *logBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// env is a fixture ecosystem on 127.0.0.1 with a cache directory that
// survives the stores built on it, as the disk survives a restart.
type env struct {
	eco      *tl.Ecosystem
	cacheDir string
	clock    *clock
	logs     *logBuffer
}

func newEnv(t *testing.T) *env {
	t.Helper()
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	eco, err := tl.NewEcosystem(p, t0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eco.Close() })
	return &env{eco: eco, cacheDir: filepath.Join(t.TempDir(), "tl-cache"), clock: &clock{now: t0}, logs: &logBuffer{}}
}

// sources are the ecosystem's lists with their signers configured; edit
// the result to drop a keystore.
func (e *env) sources() validation.TrustSources {
	return validation.TrustSources{
		LOTLURL: e.eco.LOTLURL, OJCerts: []*x509.Certificate{e.eco.LOTLSigner.Certificate}, OJSource: "tl/eu-oj-keystore.p12",
		SwissURL: e.eco.SwissURL, SwissCerts: []*x509.Certificate{e.eco.SwissSigner.Certificate}, SwissSource: "certs/CH-TL-cert-DER.cer",
	}
}

func (e *env) store(t *testing.T, src validation.TrustSources) *validation.TrustStore {
	t.Helper()
	logger := slog.New(slog.NewJSONHandler(e.logs, nil))
	cache, err := tlcache.Open(e.cacheDir, logger)
	if err != nil {
		t.Fatal(err)
	}
	client, err := egress.NewClient(egress.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return validation.NewTrustStore(src, cache, egress.NewListSource(client), trust.PrivateCA{}, e.clock.Now, logger)
}

func (e *env) status(s *validation.TrustStore) verdict.TrustData {
	return verdict.NewTrustData(s.Snapshot(), e.clock.Now(), thresholds)
}

func list(td verdict.TrustData, territory string) verdict.ListStatus {
	for _, l := range td.Lists {
		if l.Territory == territory {
			return l
		}
	}
	return verdict.ListStatus{Territory: territory, State: "ABSENT"}
}

// summary renders every list as "TERRITORY:STATE:AUTHENTICITY" for
// compact assertions.
func summary(td verdict.TrustData) string {
	var parts []string
	for _, l := range td.Lists {
		parts = append(parts, l.Territory+":"+l.State+":"+l.Authenticity)
	}
	return strings.Join(parts, " ")
}

func TestNeverLoadedBeforeAnyPass(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	td := e.status(e.store(t, e.sources()))
	is.Equal(summary(td), "EU:NEVER_LOADED: CH:NEVER_LOADED:")
	is.Equal(td.State, "NEVER_LOADED")
	is.True(!td.Current)
	is.Equal(td.Banner.Category, "no-list-loaded")
	is.Equal(td.Banner.Text, "No trusted list is loaded. This is a configuration problem of the validator, not a property of the document.")
}

func TestRefreshLoadsEveryListAuthenticated(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	s := e.store(t, e.sources())
	s.Refresh(context.Background())
	td := e.status(s)
	is.Equal(summary(td), "EU:CURRENT:VALID DE:CURRENT:VALID FR:CURRENT:VALID CH:CURRENT:VALID")
	is.True(td.Current)
	is.True(td.AnchorDataAuthenticated)
	is.Equal(td.Banner, (*verdict.Banner)(nil))
	is.Equal(*td.LastConfirmed, t0)
	de := list(td, "DE")
	is.Equal(de.Anchors, 2)
	is.Equal(*de.SequenceNumber, 1)
	is.Equal(de.Framework, "EU_EIDAS")
	is.Equal(list(td, "CH").Framework, "CH_ZERTES")
	is.True(strings.Contains(e.logs.String(), `"msg":"trusted lists refreshed","lists":"EU=ok DE=ok FR=ok CH=ok"`))
}

// §3 table: CACHE_ONLY after a restart; the confirmation date survives.
func TestRestartLoadsTheCacheAsCacheOnly(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	e.store(t, e.sources()).Refresh(context.Background())
	e.clock.Advance(time.Hour)

	restarted := e.store(t, e.sources())
	restarted.LoadCache(context.Background())
	td := e.status(restarted)
	is.Equal(summary(td), "EU:CACHE_ONLY:VALID DE:CACHE_ONLY:VALID FR:CACHE_ONLY:VALID CH:CACHE_ONLY:VALID")
	is.True(!td.Current)
	is.Equal(*list(td, "DE").LastOnlineConfirmation, t0)
	is.Equal(e.eco.Publisher.Requests(tl.MemberPath("DE")), 1) // the cache load went nowhere

	// §3 rule 5 (our decision): a successful refresh makes it CURRENT.
	restarted.Refresh(context.Background())
	is.Equal(summary(e.status(restarted)), "EU:CURRENT:VALID DE:CURRENT:VALID FR:CURRENT:VALID CH:CURRENT:VALID")
}

// An unchanged list is not downloaded again, and the check still counts
// as an online confirmation.
func TestUnchangedListsAreConfirmedWithoutDownload(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	s := e.store(t, e.sources())
	s.Refresh(context.Background())
	e.clock.Advance(8 * 24 * time.Hour) // past warn-after on axis 1
	s.Refresh(context.Background())
	is.Equal(e.eco.Publisher.Requests(tl.MemberPath("DE")), 1)
	is.Equal(e.eco.Publisher.Requests("/tl/DE.sha2"), 1)
	td := e.status(s)
	is.Equal(list(td, "DE").State, "CURRENT")
	is.Equal(*list(td, "DE").LastOnlineConfirmation, t0.Add(8*24*time.Hour))

	// A new version is downloaded.
	spec := e.eco.Spec("DE")
	spec.SequenceNumber = 2
	is.NoErr(e.eco.Publish("DE", spec, 0))
	s.Refresh(context.Background())
	is.Equal(e.eco.Publisher.Requests(tl.MemberPath("DE")), 2)
	is.Equal(*list(e.status(s), "DE").SequenceNumber, 2)
}

func TestDownloadFailuresKeepTheLastGoodCopy(t *testing.T) {
	t.Parallel()
	for _, fault := range []tl.Fault{tl.NotFound, tl.Reset, tl.Hang} {
		t.Run(map[tl.Fault]string{tl.NotFound: "404", tl.Reset: "reset", tl.Hang: "slow"}[fault], func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			e := newEnv(t)
			s := e.store(t, e.sources())
			s.Refresh(context.Background())
			e.eco.Publisher.SetFault(tl.MemberPath("DE"), fault)
			e.eco.Publisher.SetFault(tl.MemberPath("DE"), fault)
			spec := e.eco.Spec("DE")
			spec.SequenceNumber = 2 // a new version the publisher cannot deliver
			is.NoErr(e.eco.Publish("DE", spec, 0))

			for i := 1; i <= 3; i++ {
				e.clock.Advance(24 * time.Hour)
				s.Refresh(context.Background())
				de := list(e.status(s), "DE")
				is.Equal(de.ConsecutiveFailures, i)
				is.Equal(de.Failing, i >= 3) // failure-threshold 3
				is.Equal(*de.SequenceNumber, 1)
				is.Equal(de.Anchors, 2) // anchors stay available
			}
			td := e.status(s)
			is.True(!td.Current)
			is.True(td.Failing)
			is.Equal(list(td, "FR").State, "CURRENT") // judged per list
			restarted := e.store(t, e.sources())
			restarted.LoadCache(context.Background())
			is.Equal(*list(e.status(restarted), "DE").LastRefresh, verdict.ListRefresh{Outcome: "download", At: t0.Add(3 * 24 * time.Hour)})
			is.True(strings.Contains(e.logs.String(), `"level":"WARN","msg":"trusted lists refreshed","lists":"EU=ok DE=download FR=ok CH=ok"`))

			// Recovery resets the count.
			e.eco.Publisher.SetFault(tl.MemberPath("DE"), 0)
			s.Refresh(context.Background())
			de := list(e.status(s), "DE")
			is.Equal(de.ConsecutiveFailures, 0)
			is.Equal(*de.SequenceNumber, 2)
		})
	}
}

// Authenticity short of VALID degrades the store whatever its freshness,
// and the banner ranks it above staleness. A copy that is not VALID is
// refused: it never supplies anchors. On a first load nothing is held;
// once a good copy is held, it stays in use and the list reports the
// refusal.
func TestAuthenticityOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		territory string
		defect    tl.Defect
		want      string
		reason    string
		category  string
	}{
		{"tampered member list", "DE", tl.Tampered, "INVALID", "ALTERED", "signature-invalid"},
		{"member list signed by a stranger", "DE", tl.WrongSigner, "INDETERMINATE", "SIGNER_NOT_ALLOWED", "signature-indeterminate"},
		{"unsigned member list", "DE", tl.Unsigned, "INDETERMINATE", "NO_SIGNATURE", "signature-indeterminate"},
		{"tampered Swiss list", "CH", tl.Tampered, "INVALID", "ALTERED", "signature-invalid"},
		{"substituted Swiss list", "CH", tl.WrongSigner, "INDETERMINATE", "SIGNER_NOT_ALLOWED", "signature-indeterminate"},
		{"tampered LOTL", "EU", tl.Tampered, "INVALID", "ALTERED", "signature-invalid"},
		// Intact, but SHA-1 is not acceptable since 2010 (issue 16).
		{"member list signed with SHA-1", "DE", tl.SHA1Signed, "INDETERMINATE", "ALGORITHM_NOT_ACCEPTABLE", "signature-indeterminate"},
		{"Swiss list signed with SHA-1", "CH", tl.SHA1Signed, "INDETERMINATE", "ALGORITHM_NOT_ACCEPTABLE", "signature-indeterminate"},
	}
	for _, tt := range tests {
		check := func(is *is.I, td verdict.TrustData) verdict.ListStatus {
			l := list(td, tt.territory)
			is.Equal(l.Authenticity, tt.want)
			is.True(l.Refused != nil)
			is.Equal(l.Refused.Authenticity, tt.want)
			is.Equal(l.Refused.Reason, tt.reason)
			is.True(l.Refused.Text != "")
			is.True(!td.Current)
			is.True(!td.AnchorDataAuthenticated)
			is.True(td.Degraded)
			is.Equal(td.Banner.Category, tt.category)
			return l
		}
		t.Run(tt.name+"/first load", func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			e := newEnv(t)
			is.NoErr(e.eco.Publish(tt.territory, e.eco.Spec(tt.territory), tt.defect))
			s := e.store(t, e.sources())
			s.Refresh(context.Background())
			td := e.status(s)
			l := check(is, td)
			is.Equal(l.State, "NEVER_LOADED") // nothing of it is held
			is.Equal(l.Anchors, 0)
			is.Equal(l.SequenceNumber, nil)
			if tt.territory == "EU" {
				// Without a LOTL in use no member list is announced.
				is.Equal(list(td, "DE").State, "ABSENT")
			}
		})
		t.Run(tt.name+"/after a good copy", func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			e := newEnv(t)
			s := e.store(t, e.sources())
			s.Refresh(context.Background())
			good := list(e.status(s), tt.territory)
			spec := e.eco.Spec(tt.territory)
			spec.SequenceNumber = 5
			is.NoErr(e.eco.Publish(tt.territory, spec, tt.defect))
			e.clock.Advance(time.Hour)
			s.Refresh(context.Background())
			td := e.status(s)
			l := check(is, td)
			is.Equal(l.State, "CURRENT") // the good copy, still fresh enough
			is.Equal(*l.SequenceNumber, *good.SequenceNumber)
			is.Equal(l.Anchors, good.Anchors)
			is.Equal(l.ConsecutiveFailures, 1)
			is.Equal(*l.LastOnlineConfirmation, *good.LastOnlineConfirmation)
			if tt.territory == "EU" {
				// The LOTL in use still announces its members.
				is.Equal(list(td, "DE").Authenticity, "VALID")
			}
		})
	}
}

// The cache keeps the last good copy when a publisher serves a tampered
// list.
func TestTamperedDownloadsAreNotCached(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	e.store(t, e.sources()).Refresh(context.Background())
	spec := e.eco.Spec("DE")
	spec.SequenceNumber = 5
	is.NoErr(e.eco.Publish("DE", spec, tl.Tampered))
	s := e.store(t, e.sources())
	s.Refresh(context.Background())
	is.Equal(list(e.status(s), "DE").Authenticity, "INVALID")

	restarted := e.store(t, e.sources())
	restarted.LoadCache(context.Background())
	de := list(e.status(restarted), "DE")
	is.Equal(de.Authenticity, "VALID")
	is.Equal(*de.SequenceNumber, 1)
	// The restarted process names the rejected download all the same.
	is.Equal(*de.LastRefresh, verdict.ListRefresh{Outcome: "signature-invalid", At: t0})
	is.Equal(list(e.status(restarted), "FR").LastRefresh.Outcome, "ok")
}

// §3 rule 8: a parse failure drops the list's anchors and is reported
// separately; one unusable member list makes the aggregate NEVER_LOADED
// while the others stay usable.
func TestParseFailureDropsAnchors(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	s := e.store(t, e.sources())
	s.Refresh(context.Background())
	is.NoErr(e.eco.Publish("DE", e.eco.Spec("DE"), tl.Unparseable))
	e.clock.Advance(time.Hour)
	s.Refresh(context.Background())
	td := e.status(s)
	de := list(td, "DE")
	is.True(de.ParseFailed)
	is.Equal(de.Anchors, 0)
	is.Equal(de.State, "NEVER_LOADED")
	is.Equal(de.Category, "parse-failure")
	is.Equal(td.State, "NEVER_LOADED")
	is.Equal(list(td, "FR").Anchors, 2)
	is.True(td.Banner.Text != "No trusted list is loaded. This is a configuration problem of the validator, not a property of the document.")
	is.True(strings.Contains(e.logs.String(), "DE=parse-failure"))
}

// §1: a missing keystore or Swiss certificate never stops the service;
// lists are held unauthenticated and the banner names the file.
func TestMissingAuthenticationAssets(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	src := e.sources()
	src.OJCerts, src.SwissCerts = nil, nil
	s := e.store(t, src)
	s.Refresh(context.Background())
	td := e.status(s)
	is.Equal(summary(td), "EU:CURRENT:NOT_CHECKED DE:CURRENT:NOT_CHECKED FR:CURRENT:NOT_CHECKED CH:CURRENT:NOT_CHECKED")
	is.Equal(list(td, "DE").Anchors, 2) // anchors still available
	is.True(!td.AnchorDataAuthenticated)
	is.True(!td.Current)
	is.Equal(td.Banner.Category, "signature-not-checked")
	is.True(strings.Contains(td.Banner.Text, "tl/eu-oj-keystore.p12"))
}

// The LOTL's current signer is reached through a pivot signed by the
// keystore's signer.
func TestPivotLOTL(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	oldSigner, newSigner := e.eco.LOTLSigner, e.eco.PKI.SignerECDSAQC
	pivotURL := e.eco.Publisher.URL + "/lotl/eu-lotl-pivot-1.xml"
	pivot := e.eco.Spec("EU")
	pivot.SequenceNumber = 1
	pivot.SchemeInformationURIs = []string{pivotURL, "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=OJ:C:2026:001:TOC"}
	pivot.Pointers = []tl.Pointer{{Territory: "EU", Location: e.eco.LOTLURL, Type: tl.TypeLOTL, Signers: []*x509.Certificate{newSigner.Certificate}}}
	data, err := tl.Sign(pivot, oldSigner, nil, 0)
	is.NoErr(err)
	e.eco.Publisher.Put("/lotl/eu-lotl-pivot-1.xml", data)

	current := e.eco.Spec("EU")
	current.SequenceNumber = 2
	current.SchemeInformationURIs = []string{e.eco.LOTLURL, pivotURL}
	data, err = tl.Sign(current, newSigner, nil, 0)
	is.NoErr(err)
	e.eco.Publisher.Put(tl.LOTLPath, data)

	s := e.store(t, e.sources()) // the keystore holds only the old signer
	s.Refresh(context.Background())
	is.Equal(list(e.status(s), "EU").Authenticity, "VALID")
	is.Equal(list(e.status(s), "DE").Authenticity, "VALID")

	// A pivot the publisher garbles, or signs with another key, neither
	// replaces the cached one nor unseats the LOTL's signer.
	files, err := filepath.Glob(filepath.Join(e.cacheDir, "*.xml"))
	is.NoErr(err)
	cachedBefore := map[string]bool{}
	for _, f := range files {
		cachedBefore[filepath.Base(f)] = true
	}
	stranger, err := tl.Sign(pivot, e.eco.Stranger, nil, 0)
	is.NoErr(err)
	for _, bad := range [][]byte{[]byte("<html>gateway timeout</html>"), stranger} {
		e.eco.Publisher.Put("/lotl/eu-lotl-pivot-1.xml", bad)
		e.clock.Advance(time.Hour)
		s.Refresh(context.Background())
		is.Equal(list(e.status(s), "EU").Authenticity, "VALID")
		restarted := e.store(t, e.sources())
		restarted.LoadCache(context.Background())
		is.Equal(list(e.status(restarted), "EU").Authenticity, "VALID")
		after, err := filepath.Glob(filepath.Join(e.cacheDir, "*.xml"))
		is.NoErr(err)
		is.Equal(len(after), len(cachedBefore))
		for _, f := range after {
			is.True(cachedBefore[filepath.Base(f)])
		}
	}

	// Without the pivot the new signer is not vouched for.
	e.eco.Publisher.SetFault("/lotl/eu-lotl-pivot-1.xml", tl.NotFound)
	fresh := newEnvFrom(t, e)
	s2 := fresh.store(t, e.sources())
	s2.Refresh(context.Background())
	is.Equal(list(fresh.status(s2), "EU").Authenticity, "INDETERMINATE")
}

// newEnvFrom shares e's publisher with an empty cache.
func newEnvFrom(t *testing.T, e *env) *env {
	return &env{eco: e.eco, cacheDir: filepath.Join(t.TempDir(), "tl-cache"), clock: e.clock, logs: e.logs}
}

// §3 rule 2: a list past its own NextUpdate is stale whatever the
// thresholds, even while refreshes succeed; time passing ages it.
func TestAgeing(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	spec := e.eco.Spec("FR")
	spec.NextUpdate = t0.Add(2 * 24 * time.Hour)
	is.NoErr(e.eco.Publish("FR", spec, 0))
	s := e.store(t, e.sources())
	s.Refresh(context.Background())

	e.clock.Advance(3 * 24 * time.Hour)
	s.Refresh(context.Background())
	td := e.status(s)
	is.Equal(list(td, "FR").State, "STALE") // publisher's NextUpdate lapsed
	is.Equal(list(td, "DE").State, "CURRENT")
	is.Equal(td.State, "STALE")

	// Unreachable publishers: the confirmation axis ages everything.
	for _, p := range []string{tl.LOTLPath, tl.MemberPath("DE"), tl.MemberPath("FR"), tl.SwissPath} {
		e.eco.Publisher.SetFault(p, tl.NotFound)
	}
	e.clock.Advance(31 * 24 * time.Hour)
	s.Refresh(context.Background())
	td = e.status(s)
	is.Equal(summary(td), "EU:EXPIRED:VALID DE:EXPIRED:VALID FR:EXPIRED:VALID CH:EXPIRED:VALID")
	is.True(strings.Contains(e.logs.String(), "EU=download"))
}

// A pointer whose announced signers cannot be read establishes nobody:
// the member list is INDETERMINATE, not "not checked".
func TestUnreadablePointerSigners(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	lotl := e.eco.Spec("EU")
	lotl.Pointers = append([]tl.Pointer(nil), lotl.Pointers...)
	for i, p := range lotl.Pointers {
		if p.Territory == "DE" {
			lotl.Pointers[i].Signers = []*x509.Certificate{{Raw: []byte("not a certificate")}}
		}
	}
	is.NoErr(e.eco.Publish("EU", lotl, 0))
	s := e.store(t, e.sources())
	s.Refresh(context.Background())
	td := e.status(s)
	is.Equal(list(td, "EU").Authenticity, "VALID")
	is.Equal(list(td, "DE").Authenticity, "INDETERMINATE")
	is.Equal(list(td, "FR").Authenticity, "VALID")
}

// Another territory's list served at a pointer's location is substituted,
// even when a signer the pointer announces signed it; it never replaces
// the good copy in the cache.
func TestSubstitutedMemberList(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	e.store(t, e.sources()).Refresh(context.Background()) // a good DE copy is cached
	fr := e.eco.Spec("FR")
	fr.SequenceNumber = 9
	is.NoErr(e.eco.Publish("DE", fr, 0)) // FR's content at DE's address, same signer
	s := e.store(t, e.sources())
	s.Refresh(context.Background())
	td := e.status(s)
	is.Equal(list(td, "DE").Authenticity, "INDETERMINATE")
	is.Equal(list(td, "FR").Authenticity, "VALID")
	is.True(td.Degraded)

	restarted := e.store(t, e.sources())
	restarted.LoadCache(context.Background())
	de := list(e.status(restarted), "DE")
	is.Equal(de.Authenticity, "VALID")
	is.Equal(*de.SequenceNumber, 1)
	// The restarted process names the refused substitute all the same.
	is.Equal(*de.LastRefresh, verdict.ListRefresh{Outcome: "signature-indeterminate", At: t0})
	is.Equal(list(e.status(restarted), "FR").LastRefresh.Outcome, "ok")
}

// A copy whose own signature is INVALID was never confirmed online:
// the confirmation recorded for the bytes while they could not be checked
// (no keystore) does not survive their being shown INVALID, at start-up
// or when the publisher reports them unchanged.
func TestInvalidCopyIsNeverConfirmed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		refresh bool
	}{
		{"loaded from the cache", false},
		{"confirmed unchanged", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			e := newEnv(t)
			is.NoErr(e.eco.Publish("DE", e.eco.Spec("DE"), tl.Tampered))
			unchecked := e.sources()
			unchecked.OJCerts, unchecked.SwissCerts = nil, nil
			e.store(t, unchecked).Refresh(context.Background())

			e.clock.Advance(time.Hour)
			s := e.store(t, e.sources())
			s.LoadCache(context.Background())
			if tt.refresh {
				s.Refresh(context.Background())
			}
			de := list(e.status(s), "DE")
			is.True(de.Refused != nil)
			is.Equal(de.Refused.Authenticity, "INVALID")
			is.Equal(de.LastOnlineConfirmation, nil)

			restarted := e.store(t, e.sources())
			restarted.LoadCache(context.Background())
			is.Equal(list(e.status(restarted), "DE").LastOnlineConfirmation, nil)
		})
	}
}
