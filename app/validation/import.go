package validation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/ports"
)

// An ImportResult is what Import did with one list file.
type ImportResult struct {
	// File is the path the list was read from.
	File string
	// Territory is the territory the list was taken for: EU for the LOTL,
	// the territory of the LOTL pointer that names it for a member list,
	// CH for the Swiss list; what the list says of itself when it was
	// placed nowhere.
	Territory string
	// Authenticity is the outcome of the list's own signature check; zero
	// when the list was not checked (it does not parse, or it was placed
	// nowhere).
	Authenticity trust.Authenticity
	// Stored tells whether the list was written to the cache; Reason says
	// why it was not.
	Stored bool
	Reason string
}

// Import seeds the validator's list cache (WithListStore)
// from list files copied from a connected machine, the air-gapped
// deployment: each file is taken for the configured LOTL, the Swiss list,
// or the member list that the LOTL (the one given, else the cached one)
// points to for its territory, and is then checked exactly as a refresh
// checks a download of it (signature against the configured signers or
// the LOTL pointer's, pointer, territory). A list that passes is written
// to the cache as a download would be, and counts as confirmed with its
// publisher now; one that fails the checks, or that is placed nowhere,
// is not written, and the cache's bookkeeping of every list is left as it
// was. Lists not given are not touched. The results follow the order of
// paths. Import returns an error only when a file cannot be read or the
// validator has no cache; it does not change the validator's snapshot
// (LoadCache or Refresh reads what it stored).
func (v *Validator) Import(ctx context.Context, paths ...string) ([]ImportResult, error) {
	if len(paths) == 0 {
		return nil, errors.New("validation: import: no file")
	}
	if !v.importable {
		return nil, errors.New("validation: import: the validator has no list cache it may write (WithListStore)")
	}
	ts := v.trust
	var lists []givenList
	for _, p := range paths {
		data, err := readListFile(p)
		if err != nil {
			return nil, err
		}
		lists = append(lists, givenList{path: p, data: data})
	}
	results := make([]ImportResult, len(lists))
	byURL := map[string]int{} // the result index of the list served at a URL
	var lotl *trust.List
	for i, g := range lists {
		results[i].File = g.path
		l, err := trustlist.Parse(g.data)
		if err != nil {
			results[i].Reason = fmt.Sprintf("does not parse: %v", err)
			continue
		}
		lists[i].list = l
		results[i].Territory = l.Territory
		if l.Kind != trust.LOTL {
			continue
		}
		switch {
		case ts.sources.LOTLURL == "":
			results[i].Reason = "no list of trusted lists is configured"
		case lotl != nil:
			results[i].Reason = "a second list of trusted lists"
		default:
			lotl, byURL[ts.sources.LOTLURL] = &lists[i].list, i
		}
	}
	if lotl == nil && ts.sources.LOTLURL != "" {
		// The member lists are placed by the pointers of the cached LOTL,
		// which the pass authenticates before it follows them.
		if cached, err := ts.cache.Load(ctx, ts.sources.LOTLURL); err == nil {
			if l, err := trustlist.Parse(cached.Data); err == nil && l.Kind == trust.LOTL {
				lotl = &l
			}
		}
	}
	var pointers []trust.Pointer
	if lotl != nil {
		pointers = trustlist.MemberLists(*lotl)
	}
	for i, g := range lists {
		if results[i].Reason != "" || g.list.Kind == trust.LOTL {
			continue
		}
		at := slices.IndexFunc(pointers, func(p trust.Pointer) bool { return trustlist.Names(p, g.list.Territory) })
		url := ""
		switch {
		case at >= 0:
			url, results[i].Territory = pointers[at].Location, pointers[at].Territory
		case g.list.Territory == "CH" && ts.sources.SwissURL != "":
			url = ts.sources.SwissURL
		case lotl == nil:
			results[i].Reason = fmt.Sprintf("the list of %s needs the list of trusted lists that points to it, given or cached", g.list.Territory)
			continue
		default:
			results[i].Reason = fmt.Sprintf("the list of trusted lists names no list of %s", g.list.Territory)
			continue
		}
		if j, dup := byURL[url]; dup {
			results[i].Reason = fmt.Sprintf("a second list of %s (%s)", g.list.Territory, lists[j].path)
			continue
		}
		byURL[url] = i
	}

	src := importSource{}
	for url, i := range byURL {
		src[url] = lists[i].data
	}
	cache := &importCache{cache: ts.cache, given: src, stored: map[string]bool{}}
	pass := NewTrustStore(ts.sources, cache, src, ts.privateCA, ts.clock, ts.logger)
	snap := pass.Refresh(ctx)
	for url, i := range byURL {
		r := &results[i]
		r.Stored = cache.stored[url]
		at := slices.IndexFunc(snap.Lists, func(l trust.ListState) bool { return l.URL == url })
		if at < 0 {
			// The LOTL was refused, so none of its pointers was followed.
			r.Reason = "not checked: the list of trusted lists that points to it was refused"
			continue
		}
		st := snap.Lists[at]
		r.Authenticity = st.Authenticity
		if st.Refusal.Refused() {
			r.Authenticity = st.Refusal.Authenticity
		}
		switch {
		case r.Stored:
			r.Reason = ""
		case st.ParseFailed:
			r.Reason = "does not parse"
		case st.Refusal.Refused():
			r.Reason = fmt.Sprintf("its own signature is %s (%s)", st.Refusal.Authenticity, st.Refusal.Reason)
		default:
			r.Reason = "not stored: " + st.LastFailure
		}
	}
	return results, nil
}

// importSource serves the given lists by URL; any other is unavailable.
type importSource map[string][]byte

func (s importSource) Fetch(_ context.Context, url, _ string) ([]byte, error) {
	data, ok := s[url]
	if !ok {
		return nil, fmt.Errorf("%s: not among the imported files", url)
	}
	return slices.Clone(data), nil
}

// importCache is the cache an import pass writes through: the lists
// given that passed the checks are stored, nothing else is written, so
// the bookkeeping of the lists not given (their download "failed") and
// of the lists refused stays as it was.
type importCache struct {
	cache  ports.TrustListCache
	given  importSource
	mu     sync.Mutex
	stored map[string]bool
}

func (c *importCache) Load(ctx context.Context, url string) (ports.CachedList, error) {
	return c.cache.Load(ctx, url)
}

func (c *importCache) Store(ctx context.Context, url string, data []byte, meta ports.ListMeta) error {
	if _, ok := c.given[url]; !ok {
		return nil
	}
	if err := c.cache.Store(ctx, url, data, meta); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stored[url] = true
	return nil
}

func (c *importCache) StoreMeta(context.Context, string, ports.ListMeta) error { return nil }
