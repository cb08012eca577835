package validation

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/ports"
)

// TrustSources are the configured public lists and what their own
// signatures are checked against.
type TrustSources struct {
	// LOTLURL is empty when no EU list is trusted.
	LOTLURL string
	// OJCerts are the LOTL signer certificates of the Official Journal
	// keystore; nil when the keystore is missing (lists are then held
	// unauthenticated). OJSource names the keystore file for banners.
	OJCerts  []*x509.Certificate
	OJSource string
	// SwissURL is empty when the Swiss list is disabled.
	SwissURL   string
	SwissCerts []*x509.Certificate
	// SwissSource names the Swiss signer certificate file for banners.
	SwissSource string
}

// TrustStore holds the merged trust store: the current snapshot, swapped
// atomically by refreshes, and the bookkeeping that freshness reads.
// Validations read one snapshot each; refreshes run one at a time.
type TrustStore struct {
	sources TrustSources
	cache   ports.TrustListCache
	source  ports.TrustListSource
	clock   func() time.Time
	logger  *slog.Logger

	refreshMu sync.Mutex // one refresh or cache load at a time
	snap      atomic.Pointer[trust.Snapshot]
	privateCA trust.PrivateCA
}

// maxParallelFetches bounds the member lists fetched at once: about thirty
// publishers, each a few megabytes.
const maxParallelFetches = 4

// NewTrustStore returns a store with an empty snapshot (every list
// NEVER_LOADED) until LoadCache or Refresh runs.
func NewTrustStore(src TrustSources, cache ports.TrustListCache, source ports.TrustListSource, privateCA trust.PrivateCA, clock func() time.Time, logger *slog.Logger) *TrustStore {
	s := &TrustStore{sources: src, cache: cache, source: source, clock: clock, logger: logger, privateCA: privateCA}
	s.snap.Store(&trust.Snapshot{Lists: s.emptyLists(), PrivateCA: privateCA})
	return s
}

// Snapshot returns the current snapshot. It is never nil and never changes.
func (s *TrustStore) Snapshot() *trust.Snapshot { return s.snap.Load() }

func (s *TrustStore) emptyLists() []trust.ListState {
	var lists []trust.ListState
	if s.sources.LOTLURL != "" {
		lists = append(lists, trust.ListState{Territory: "EU", Kind: trust.LOTL, Framework: trust.EUEIDAS, URL: s.sources.LOTLURL, AnchorSource: s.sources.OJSource})
	}
	if s.sources.SwissURL != "" {
		lists = append(lists, trust.ListState{Territory: "CH", Kind: trust.TL, Framework: trust.CHZERTES, URL: s.sources.SwissURL, AnchorSource: s.sources.SwissSource})
	}
	return lists
}

// mode tells a pass that may go online from one that reads the cache only.
type mode bool

const (
	offline mode = false
	online  mode = true
)

// LoadCache builds the snapshot from the on-disk cache only, as start-up
// does: no list is confirmed online by it.
func (s *TrustStore) LoadCache(ctx context.Context) *trust.Snapshot {
	return s.pass(ctx, offline)
}

// Refresh runs one online pass over every list, records each list's
// outcome, logs one line naming them, and swaps in the new snapshot.
func (s *TrustStore) Refresh(ctx context.Context) *trust.Snapshot {
	return s.pass(ctx, online)
}

func (s *TrustStore) pass(ctx context.Context, m mode) *trust.Snapshot {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	prev := s.Snapshot()
	byURL := map[string]trust.ListState{}
	for _, l := range prev.Lists {
		byURL[l.URL] = l
	}

	var lists []trust.ListState
	if s.sources.LOTLURL != "" {
		lotl := s.loadLOTL(ctx, m, byURL[s.sources.LOTLURL])
		lists = append(lists, lotl)
		if lotl.List != nil {
			lists = append(lists, s.loadMembers(ctx, m, lotl, byURL)...)
		}
	}
	if s.sources.SwissURL != "" {
		prevCH := byURL[s.sources.SwissURL]
		prevCH.Territory, prevCH.Kind, prevCH.Framework = "CH", trust.TL, trust.CHZERTES
		swiss := func(l trust.List) ([]*x509.Certificate, trust.AuthReason) {
			if l.Territory != "CH" {
				return nil, trust.ReasonSubstituted
			}
			return s.sources.SwissCerts, 0
		}
		lists = append(lists, s.load(ctx, m, prevCH, s.sources.SwissURL, swiss, s.sources.SwissSource))
	}
	next := &trust.Snapshot{Lists: lists, PrivateCA: s.privateCA}
	s.snap.Store(next)
	s.logPass(ctx, m, next)
	return next
}

// loadLOTL loads the LOTL. Its signature is checked against the OJ
// keystore and against the signers announced by the pivot LOTLs it names
// that the keystore (or an earlier pivot) authenticates: the keystore may
// predate the LOTL's current signer (TS 119 612 §5.3.12 and the Official
// Journal's re-anchoring practice).
func (s *TrustStore) loadLOTL(ctx context.Context, m mode, prev trust.ListState) trust.ListState {
	prev.Territory, prev.Kind, prev.Framework = "EU", trust.LOTL, trust.EUEIDAS
	signers := func(l trust.List) ([]*x509.Certificate, trust.AuthReason) {
		if l.Territory != "EU" {
			return nil, trust.ReasonSubstituted
		}
		return s.lotlSignerSet(ctx, m, l), 0
	}
	return s.load(ctx, m, prev, s.sources.LOTLURL, signers, s.sources.OJSource)
}

// lotlSignerSet returns the OJ keystore's certificates plus those announced
// by every pivot that verifies under the set built so far. The walk runs to
// a fixed point, so the order in which the LOTL lists its pivots does not
// matter; each round adds at least one pivot or ends it.
func (s *TrustStore) lotlSignerSet(ctx context.Context, m mode, lotl trust.List) []*x509.Certificate {
	certs := slices.Clone(s.sources.OJCerts)
	if len(certs) == 0 {
		return nil
	}
	// A pivot names its own location first, and a LOTL may name itself:
	// neither is a step of the walk.
	pending := slices.DeleteFunc(trustlist.Pivots(lotl), func(u string) bool { return u == s.sources.LOTLURL })
	for progress := true; progress && len(pending) > 0; {
		progress = false
		for i := 0; i < len(pending); i++ {
			downloaded, cached, err := s.pivot(ctx, m, pending[i])
			if err != nil {
				s.logger.WarnContext(ctx, "trusted lists: pivot LOTL unavailable", slog.String("url", pending[i]), slog.String("error", err.Error()))
				pending = slices.Delete(pending, i, i+1)
				i--
				continue
			}
			current := certs
			var signers []*x509.Certificate
			verified := false
			// The downloaded copy first; the cached one, which verified
			// when it was stored, when the download does not.
			for k, data := range [][]byte{downloaded, cached} {
				if data == nil {
					continue
				}
				pl, check, err := readList(data, func(trust.List) ([]*x509.Certificate, trust.AuthReason) { return current, 0 })
				if err != nil || check.Authenticity != trust.AuthValid {
					continue
				}
				if k == 0 {
					s.storePivot(ctx, pending[i], data)
				}
				signers, verified = lotlSigners(pl), true
				break
			}
			if !verified {
				continue
			}
			certs = append(certs, signers...)
			pending = slices.Delete(pending, i, i+1)
			i--
			progress = true
		}
	}
	return certs
}

// lotlSigners returns the certificates a LOTL announces for the EU LOTL
// itself (its pointer with territory EU).
func lotlSigners(l trust.List) []*x509.Certificate {
	var out []*x509.Certificate
	for _, p := range l.Pointers {
		if p.Territory != "EU" {
			continue
		}
		for _, der := range p.SignerCertificates {
			if c, err := cert.Parse(der); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// loadMembers loads every member-state list the LOTL points to, a few at
// a time, in territory order.
func (s *TrustStore) loadMembers(ctx context.Context, m mode, lotl trust.ListState, byURL map[string]trust.ListState) []trust.ListState {
	pointers := trustlist.MemberLists(*lotl.List)
	out := make([]trust.ListState, len(pointers))
	sem := make(chan struct{}, maxParallelFetches)
	var wg sync.WaitGroup
	for i, p := range pointers {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var certs []*x509.Certificate
			for _, der := range p.SignerCertificates {
				if c, err := cert.Parse(der); err == nil {
					certs = append(certs, c)
				}
			}
			prev := byURL[p.Location]
			// A list is named by the pointer that led to it, never by what
			// it says of itself before it is authenticated.
			prev.Territory, prev.Kind = p.Territory, trust.TL
			// A member list's signers come from the LOTL; when the LOTL
			// itself is not authenticated (NOT_CHECKED), neither are they.
			source := "the LOTL pointer for " + p.Territory
			if lotl.Authenticity != trust.AuthValid {
				certs = nil
				source = lotl.AnchorSource
			}
			unreadable := lotl.Authenticity == trust.AuthValid && len(p.SignerCertificates) > 0 && len(certs) == 0
			signers := func(l trust.List) ([]*x509.Certificate, trust.AuthReason) {
				switch {
				case !trustlist.Names(p, l.Territory):
					// Another territory's list at this pointer's location
					// is a substituted list, whoever signed it.
					return nil, trust.ReasonSubstituted
				case unreadable:
					// None of the announced certificates can be read:
					// nothing establishes who may sign it.
					return nil, trust.ReasonNoReadableSigner
				}
				return certs, 0
			}
			st := s.load(ctx, m, prev, p.Location, signers, source)
			if p.MRA != nil && st.List != nil {
				// A third-country list may call itself by the territory
				// its pointer's type names (the MRA pilot points to "XX"
				// for the list of "ZZ"); trustlist.Names checked that it does.
				st.Territory = st.List.Territory
				// It is read in eIDAS terms through the agreement, and its
				// anchors are eIDAS ones (decision 0021). A copy kept from
				// the previous pass (its download failed or was refused)
				// is mapped already.
				if st.List != prev.List {
					mapped := copyServices(*st.List)
					trustlist.ApplyMRA(&mapped, p.MRA)
					st.List, st.Framework = &mapped, trust.EUEIDAS
				}
			}
			out[i] = st
		})
	}
	wg.Wait()
	sort.SliceStable(out, func(i, j int) bool { return out[i].Territory < out[j].Territory })
	return out
}

// load brings one list up to date. Online, it asks the publisher (sending
// the cached digest, so an unchanged list is not downloaded again); offline
// or when the publisher fails, it uses the cached copy. Only a copy that
// parses and whose signature is not shown broken or substituted is
// written to the cache: the last good copy is kept.
func (s *TrustStore) load(ctx context.Context, m mode, prev trust.ListState, url string, signers signerSet, anchorSource string) trust.ListState {
	now := s.clock()
	st := prev
	st.URL, st.AnchorSource = url, anchorSource
	cached, cerr := s.cache.Load(ctx, url)
	if cerr == nil && prev.List == nil && m == offline {
		// Start-up: the cache's bookkeeping is what this process knows.
		st.LastOnlineConfirmation = cached.Meta.LastOnlineConfirmation
		st.ConsecutiveFailures = cached.Meta.ConsecutiveFailures
		st.LastRefresh, st.LastRefreshAt = cached.Meta.LastRefresh, cached.Meta.LastRefreshAt
	}
	rec := freshness.FromState(st)
	if m == offline {
		if cerr != nil {
			return st
		}
		return s.adopt(ctx, st, rec, cached.Data, signers, freshness.Outcome{}, now, false)
	}

	known := ""
	if cerr == nil {
		known = cached.Meta.SHA256
	}
	data, err := s.source.Fetch(ctx, url, known)
	switch {
	case errors.Is(err, ports.ErrNotModified):
		st = s.adopt(ctx, st, rec, cached.Data, signers, freshness.Outcome{Kind: freshness.Unchanged}, now, false)
	case err != nil:
		s.logger.WarnContext(ctx, "trusted list: download failed", slog.String("list", st.Territory), slog.String("url", url), slog.String("error", err.Error()))
		rec = freshness.Record(rec, freshness.Outcome{Kind: freshness.DownloadFailed}, now)
		st = rec.Bookkeeping(st)
		st.LastFailure = "download"
		if st.List == nil && cerr == nil {
			st = s.adopt(ctx, st, rec, cached.Data, signers, freshness.Outcome{}, now, true)
		}
	default:
		st = s.adopt(ctx, st, rec, data, signers, freshness.Outcome{Kind: freshness.Downloaded}, now, true)
	}
	st.LastRefresh, st.LastRefreshAt = "ok", now
	if st.LastFailure != "" {
		st.LastRefresh = st.LastFailure
	}
	s.persist(ctx, url, st, data, cached, cerr)
	return st
}

// signerSet returns the certificates allowed to sign a parsed list, or why
// no signature can authenticate it (a list other than the one expected at
// its location, announced signers none of which can be read): the list is
// then INDETERMINATE whatever its signature.
type signerSet func(trust.List) (certs []*x509.Certificate, problem trust.AuthReason)

// adopt parses and authenticates data and records outcome (zero: no
// refresh outcome, a cache load). keepFailure keeps LastFailure as set.
// A copy whose own signature is INVALID or INDETERMINATE is refused.
func (s *TrustStore) adopt(ctx context.Context, st trust.ListState, rec freshness.List, data []byte, signers signerSet, outcome freshness.Outcome, now time.Time, keepFailure bool) trust.ListState {
	l, check, err := readList(data, signers)
	// The list's signature is judged by the cryptographic constraints at
	// the time it is read (docs/decisions/0027).
	check = check.Judged(algorithm.Default(), now)
	if err != nil {
		s.logger.WarnContext(ctx, "trusted list: does not parse; its anchors are dropped", slog.String("list", st.Territory), slog.String("url", st.URL), slog.String("error", err.Error()))
		if outcome.Kind != 0 {
			rec = freshness.Record(rec, freshness.Outcome{Kind: freshness.ParseFailed}, now)
		}
		st = rec.Bookkeeping(st)
		st.List, st.ParseFailed, st.LastFailure, st.Authenticity, st.SHA1Signature = nil, true, "parse", 0, false
		st.SHA256 = [sha256.Size]byte{}
		return st
	}
	if check.Refused() {
		return s.refuse(ctx, st, rec, check, outcome, now)
	}
	if outcome.Kind == freshness.Downloaded {
		outcome.Authenticity, outcome.IssueDate, outcome.NextUpdate = check.Authenticity, l.IssueDate, l.NextUpdate
	} else if outcome.Kind == freshness.Unchanged {
		outcome.Authenticity = check.Authenticity
	}
	if outcome.Kind != 0 {
		rec = freshness.Record(rec, outcome, now)
	}
	st = rec.Bookkeeping(st)
	st.List, st.Authenticity, st.SHA1Signature, st.ParseFailed = &l, check.Authenticity, check.SHA1, false
	st.SHA256 = sha256.Sum256(data)
	st.Refusal = trust.Check{}
	st.Framework = trustlist.Framework(l)
	if st.Territory == "" {
		// The entry is named by where the list was expected (its pointer);
		// the list names it only when nothing else does.
		st.Territory = l.Territory
	}
	if !keepFailure {
		st.LastFailure = ""
	}
	if check.SHA1 {
		s.logger.WarnContext(ctx, "trusted list: its own signature uses SHA-1", slog.String("list", st.Territory), slog.String("url", st.URL))
	}
	return st
}

// refuse records a copy whose own signature is INVALID or INDETERMINATE:
// it never becomes the copy in use, so no service it lists reaches the
// store, and it is never cached. A downloaded copy leaves the copy in use,
// which authenticated when it was adopted, as it is; a copy read again
// from the cache (at start-up, or confirmed unchanged online) is the copy
// in use, which goes with it, and so does its last online confirmation:
// bytes whose signature is INVALID or INDETERMINATE were never confirmed.
// Either way the list reports the refusal and degrades the store until a
// copy authenticates again.
func (s *TrustStore) refuse(ctx context.Context, st trust.ListState, rec freshness.List, check trust.Check, outcome freshness.Outcome, now time.Time) trust.ListState {
	s.logger.WarnContext(ctx, "trusted list: refused: its own signature is not valid; the copy in use is kept",
		slog.String("list", st.Territory), slog.String("url", st.URL),
		slog.String("authenticity", check.Authenticity.String()), slog.String("reason", check.Reason.String()))
	if outcome.Kind != freshness.Downloaded {
		st.List, st.Authenticity, st.SHA1Signature, st.SHA256 = nil, 0, false, [sha256.Size]byte{}
		// The confirmation recorded for these bytes (while they could not
		// be checked) confirmed a copy now refused: it confirmed nothing.
		rec.LastOnlineConfirmation, rec.ConfirmedInThisProcess = time.Time{}, false
	}
	if outcome.Kind != 0 {
		rec = freshness.Record(rec, freshness.Outcome{Kind: freshness.Refused, Authenticity: check.Authenticity}, now)
	}
	st = rec.Bookkeeping(st)
	st.Refusal = check
	st.LastFailure = "signature-indeterminate"
	if check.Authenticity == trust.AuthInvalid {
		st.LastFailure = "signature-invalid"
	}
	return st
}

// readList parses data once and checks the list's own signature on the
// same tree: the tokenising is most of the cost of a refresh. A document
// the signature checker cannot read is parsed from its bytes and comes out
// INDETERMINATE: its signature cannot be checked.
//
// What is parsed is what was verified: ParseTree reads the tree's root, and
// AuthenticateTree is VALID only when the signature's reference resolved
// to that very node (or to the whole document).
func readList(data []byte, signers signerSet) (trust.List, trust.Check, error) {
	if len(data) > trustlist.MaxInputBytes {
		_, err := trustlist.Parse(data) // reports the limit
		return trust.List{}, trust.Check{}, err
	}
	tree, err := xmldsig.ParseDocumentLimits(data, trustlist.DocumentLimits())
	var l trust.List
	if err != nil {
		tree = nil
		l, err = trustlist.Parse(data)
	} else {
		l, err = trustlist.ParseTree(tree)
	}
	if err != nil {
		return trust.List{}, trust.Check{}, err
	}
	certs, problem := signers(l)
	switch {
	case problem != 0:
		return l, trust.Check{Authenticity: trust.AuthIndeterminate, Reason: problem}, nil
	case len(certs) == 0:
		return l, trust.Check{Authenticity: trust.AuthNotChecked}, nil
	case tree == nil:
		return l, trust.Check{Authenticity: trust.AuthIndeterminate, Reason: trust.ReasonUnreadableSignature}, nil
	}
	return l, trustlist.AuthenticateTree(tree, certs), nil
}

// persist writes what a pass learnt back to the cache: new bytes that
// parsed and are not shown tampered or substituted, else the bookkeeping.
func (s *TrustStore) persist(ctx context.Context, url string, st trust.ListState, data []byte, cached ports.CachedList, cerr error) {
	meta := ports.ListMeta{
		URL: url, Downloaded: cached.Meta.Downloaded, LastOnlineConfirmation: st.LastOnlineConfirmation, ConsecutiveFailures: st.ConsecutiveFailures,
		LastRefresh: st.LastRefresh, LastRefreshAt: st.LastRefreshAt,
	}
	var err error
	switch {
	case data != nil && st.List != nil && !st.Refusal.Refused() && (st.Authenticity == trust.AuthValid || st.Authenticity == trust.AuthNotChecked):
		meta.Downloaded = s.clock()
		err = s.cache.Store(ctx, url, data, meta)
	case cerr == nil:
		err = s.cache.StoreMeta(ctx, url, meta)
	}
	if err != nil {
		s.logger.ErrorContext(ctx, "trusted list: cache write failed", slog.String("url", url), slog.String("error", err.Error()))
	}
}

// pivot returns a pivot LOTL's bytes: those downloaded (online) and
// those cached, either nil when there are none. Nothing is cached here:
// downloaded bytes are stored by storePivot once they verified. Pivots are
// not tracked as lists of their own.
func (s *TrustStore) pivot(ctx context.Context, m mode, url string) (downloaded, cached []byte, err error) {
	c, cerr := s.cache.Load(ctx, url)
	if cerr == nil {
		cached = c.Data
	}
	if m == online {
		data, err := s.source.Fetch(ctx, url, c.Meta.SHA256)
		switch {
		case err == nil:
			return data, cached, nil
		case !errors.Is(err, ports.ErrNotModified) && cerr != nil:
			return nil, nil, err
		}
	}
	if cerr != nil {
		return nil, nil, cerr
	}
	return nil, cached, nil
}

// storePivot caches a downloaded pivot LOTL that verified.
func (s *TrustStore) storePivot(ctx context.Context, url string, data []byte) {
	now := s.clock()
	if err := s.cache.Store(ctx, url, data, ports.ListMeta{Downloaded: now, LastOnlineConfirmation: now}); err != nil {
		s.logger.ErrorContext(ctx, "trusted list: cache write failed", slog.String("url", url), slog.String("error", err.Error()))
	}
}

// logPass writes the one line per pass that names each list's outcome;
// WARN when any list is degraded, failing or unavailable.
func (s *TrustStore) logPass(ctx context.Context, m mode, snap *trust.Snapshot) {
	level := slog.LevelInfo
	var parts []string
	for _, l := range snap.Lists {
		outcome := "ok"
		switch {
		case l.List == nil && l.ParseFailed:
			outcome = "parse-failure"
		case l.List == nil:
			outcome = "unavailable"
		case l.LastFailure != "":
			outcome = l.LastFailure
		case l.Authenticity != trust.AuthValid:
			outcome = "unauthenticated(" + l.Authenticity.String() + ")"
		}
		if outcome != "ok" {
			level = slog.LevelWarn
		}
		parts = append(parts, l.Territory+"="+outcome)
	}
	msg := "trusted lists refreshed"
	if m == offline {
		msg = "trusted lists loaded from cache"
	}
	s.logger.Log(ctx, level, msg, slog.String("lists", strings.Join(parts, " ")), slog.Int("count", len(snap.Lists)))
}

// copyServices returns l with its providers' services copied down to the
// qualifier lists, so that mapping them (trustlist.ApplyMRA) leaves the
// list an older snapshot may still be reading untouched.
func copyServices(l trust.List) trust.List {
	l.Providers = slices.Clone(l.Providers)
	for i := range l.Providers {
		svcs := slices.Clone(l.Providers[i].Services)
		for j := range svcs {
			svcs[j].History = slices.Clone(svcs[j].History)
			svcs[j].Qualifications = copyQualifications(svcs[j].Qualifications)
			svcs[j].AdditionalInfo = slices.Clone(svcs[j].AdditionalInfo)
			for k := range svcs[j].History {
				svcs[j].History[k].Qualifications = copyQualifications(svcs[j].History[k].Qualifications)
				svcs[j].History[k].AdditionalInfo = slices.Clone(svcs[j].History[k].AdditionalInfo)
			}
		}
		l.Providers[i].Services = svcs
	}
	return l
}

func copyQualifications(qs []trust.Qualification) []trust.Qualification {
	qs = slices.Clone(qs)
	for i := range qs {
		qs[i].Qualifiers = slices.Clone(qs[i].Qualifiers)
	}
	return qs
}
