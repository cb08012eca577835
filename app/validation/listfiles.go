package validation

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

// WithTrustedListFiles trusts the trusted lists in the files at paths:
// at most one EU list of trusted lists (LOTL), the member-state lists it
// points to, and the Swiss list. Each is checked exactly as a refresh
// checks a download: the LOTL and the Swiss list against signers, each
// member list against the certificates of the LOTL's pointer that names
// its territory. A list that fails is reported in the trust status and
// lends no anchor. The LOTL's pointers are followed only among the given
// files: a member list not given is unavailable. Nothing is downloaded
// and no cache is read or written; New runs the checks.
//
// A list is named in the trust status by its file's path.
func WithTrustedListFiles(signers []*x509.Certificate, paths ...string) Option {
	return option("WithTrustedListFiles", func(s *settings) error {
		if len(paths) == 0 {
			return errors.New("no file")
		}
		if slices.Contains(signers, nil) {
			return errors.New("nil certificate")
		}
		files := &listFiles{signers: slices.Clone(signers), data: map[string][]byte{}}
		var lists []givenList
		for _, p := range paths {
			data, err := readListFile(p)
			if err != nil {
				return err
			}
			// Read unauthenticated, only to know where it belongs: what
			// it says counts once the pass authenticated it.
			l, err := trustlist.Parse(data)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			lists = append(lists, givenList{path: p, data: data, list: l})
		}
		if err := files.place(lists); err != nil {
			return err
		}
		s.files = files
		return nil
	})
}

// readListFile reads a list file, refusing one larger than any list the
// parser reads.
func readListFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, trustlist.MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > trustlist.MaxInputBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes, the most a trusted list may hold", path, trustlist.MaxInputBytes)
	}
	return data, nil
}

// listFiles are the lists of WithTrustedListFiles, keyed by the URL the
// trust store asks for them under: a file's path for the LOTL and the
// Swiss list, the location of the pointer that names it for a member
// list. They are the trust store's publisher (a ports.TrustListSource).
type listFiles struct {
	signers     []*x509.Certificate
	lotl, swiss string // their paths; empty: not given
	data        map[string][]byte
}

type givenList struct {
	path string
	data []byte
	list trust.List
}

// place files each list where the trust store will ask for it.
func (f *listFiles) place(lists []givenList) error {
	var lotl *trust.List
	for _, g := range lists {
		if g.list.Kind != trust.LOTL {
			continue
		}
		if lotl != nil {
			return fmt.Errorf("%s and %s: two lists of trusted lists, one at most", f.lotl, g.path)
		}
		f.lotl, f.data[g.path] = g.path, g.data
		lotl = &g.list
	}
	var pointers []trust.Pointer
	if lotl != nil {
		pointers = trustlist.MemberLists(*lotl)
	}
	for _, g := range lists {
		if g.list.Kind == trust.LOTL {
			continue
		}
		i := slices.IndexFunc(pointers, func(p trust.Pointer) bool { return trustlist.Names(p, g.list.Territory) })
		switch {
		case i >= 0:
			if _, dup := f.data[pointers[i].Location]; dup {
				return fmt.Errorf("%s: a second list of %s", g.path, g.list.Territory)
			}
			f.data[pointers[i].Location] = g.data
		case g.list.Territory == "CH" && f.swiss == "":
			f.swiss, f.data[g.path] = g.path, g.data
		case lotl == nil:
			return fmt.Errorf("%s: the list of %s needs the list of trusted lists that points to it", g.path, g.list.Territory)
		default:
			return fmt.Errorf("%s: the list of trusted lists %s names no list of %s", g.path, f.lotl, g.list.Territory)
		}
	}
	return nil
}

// Fetch serves a given list; any other location is unavailable, as a
// publisher that does not answer.
func (f *listFiles) Fetch(_ context.Context, url, _ string) ([]byte, error) {
	data, ok := f.data[url]
	if !ok {
		return nil, fmt.Errorf("%s: not among the given trusted-list files", url)
	}
	return slices.Clone(data), nil
}
