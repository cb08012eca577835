package pades

import (
	"crypto"
	"encoding"
	"fmt"
	"slices"

	"github.com/svc-dss/dss/adapters/formats/cms"
)

// prefixes hashes byte ranges. Every sound byte range starts the file
// (checkByteRange), and a later revision's first range holds the whole
// of an earlier one's: a document with five signatures over a 10 MB
// original would hash it five times. The hash state at the end of each
// first range is kept, and the next range that reaches past it resumes
// from there. States are kept per hash algorithm, for the hashes whose
// state Go can save (SHA-1, SHA-2, SHA-3).
type prefixes struct {
	data  []byte
	saved map[crypto.Hash][]savedState // ascending by at
}

type savedState struct {
	at    int
	state []byte
}

// digests are the digests of the bytes r covers under hashes.
func (p *prefixes) digests(r [4]int, hashes ...crypto.Hash) (cms.Digests, error) {
	out := make(cms.Digests, len(hashes))
	for _, h := range hashes {
		d, err := p.digest(r, h)
		if err != nil {
			return nil, err
		}
		out[h] = d
	}
	return out, nil
}

// digest is the digest of the bytes r covers under h.
func (p *prefixes) digest(r [4]int, h crypto.Hash) ([]byte, error) {
	if !h.Available() {
		return nil, fmt.Errorf("%w: hash %v", cms.ErrUnsupported, h)
	}
	hh := h.New()
	from := r[0]
	saved := p.saved[h]
	i, _ := slices.BinarySearchFunc(saved, r[1], func(s savedState, at int) int { return s.at - at - 1 })
	// saved[:i] are the states at or before r[1]; the last is the longest.
	if u, ok := hh.(encoding.BinaryUnmarshaler); ok && r[0] == 0 && i > 0 {
		if err := u.UnmarshalBinary(saved[i-1].state); err == nil {
			from = saved[i-1].at
		} else {
			hh.Reset()
		}
	}
	hh.Write(p.data[from : r[0]+r[1]])
	if m, ok := hh.(encoding.BinaryMarshaler); ok && r[0] == 0 && (i == 0 || saved[i-1].at != r[1]) {
		if state, err := m.MarshalBinary(); err == nil {
			if p.saved == nil {
				p.saved = map[crypto.Hash][]savedState{}
			}
			p.saved[h] = slices.Insert(saved, i, savedState{at: r[1], state: state})
		}
	}
	hh.Write(p.data[r[2] : r[2]+r[3]])
	return hh.Sum(nil), nil
}
