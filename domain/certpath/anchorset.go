package certpath

import (
	"crypto/x509"

	"github.com/svc-dss/dss/domain/trust"
)

// An AnchorSet is a list of anchors indexed for path building. Indexing
// normalises every anchor's subject name, which for the EU trusted lists
// (thousands of anchors) costs far more than building a path: build the
// set once per trust snapshot and share it. It is immutable and safe for
// concurrent use.
type AnchorSet struct {
	anchors   []Anchor
	certs     []*x509.Certificate
	bySubject map[string][]int // normalised subject -> indexes into anchors
	// added indexes the anchors With appended to a set whose bySubject
	// this set shares.
	added map[string][]int
	// responders are the certificates of the anchors listed as OCSP
	// services (Responders).
	responders []*x509.Certificate
}

// NewAnchorSet indexes anchors, skipping those without a certificate, in
// their order (which is [Build]'s order of preference).
func NewAnchorSet(anchors []Anchor) *AnchorSet {
	s := &AnchorSet{bySubject: make(map[string][]int, len(anchors))}
	for _, a := range anchors {
		s.add(a, s.bySubject)
	}
	return s
}

// add appends a, when it has a certificate, and files it in index.
func (s *AnchorSet) add(a Anchor, index map[string][]int) {
	if a.Certificate == nil {
		return
	}
	k := nameKey(a.Certificate.RawSubject)
	index[k] = append(index[k], len(s.anchors))
	s.anchors = append(s.anchors, a)
	s.certs = append(s.certs, a.Certificate)
	if a.Service != nil && (a.Service.Type == trust.TypeOCSP || a.Service.Type == trust.TypeOCSPQC) {
		s.responders = append(s.responders, a.Certificate)
	}
}

// With returns a set of s's anchors followed by more, leaving s as it
// is; it indexes only more, and shares s's index. A nil s is an empty
// set.
func (s *AnchorSet) With(more ...Anchor) *AnchorSet {
	if s == nil || s.added != nil {
		return NewAnchorSet(append(append([]Anchor(nil), s.Anchors()...), more...))
	}
	w := &AnchorSet{
		// Capped, so that appending copies rather than writing into s.
		anchors:    s.anchors[:len(s.anchors):len(s.anchors)],
		certs:      s.certs[:len(s.certs):len(s.certs)],
		responders: s.responders[:len(s.responders):len(s.responders)],
		bySubject:  s.bySubject,
		added:      map[string][]int{},
	}
	for _, a := range more {
		w.add(a, w.added)
	}
	return w
}

// Len is the number of anchors.
func (s *AnchorSet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.anchors)
}

// Anchors returns the anchors in order. The slice is shared: do not
// modify it.
func (s *AnchorSet) Anchors() []Anchor {
	if s == nil {
		return nil
	}
	return s.anchors
}

// Certificates returns the anchors' certificates in order. The slice is
// shared: do not modify it.
func (s *AnchorSet) Certificates() []*x509.Certificate {
	if s == nil {
		return nil
	}
	return s.certs
}

// Responders returns the certificates of the anchors a trusted list
// names as OCSP services (Certstatus/OCSP and Certstatus/OCSP/QC): the
// responders a validator trusts to answer for any certificate, not only
// for those of the CA that delegated them (RFC 6960, section 4.2.2.2).
func (s *AnchorSet) Responders() []*x509.Certificate {
	if s == nil {
		return nil
	}
	return s.responders
}

// bySubjectOf returns the indexes of the anchors whose normalised
// subject is key, in order.
func (s *AnchorSet) bySubjectOf(key string) []int {
	if s == nil {
		return nil
	}
	if extra := s.added[key]; len(extra) > 0 {
		return append(s.bySubject[key][:len(s.bySubject[key]):len(s.bySubject[key])], extra...)
	}
	return s.bySubject[key]
}

// Listed returns the anchors of public lists whose certificate is c's
// entity (the same certificate, or the same subject and key): every
// service that lists it, on every list, for qualification. Private
// anchors are left out.
func (s *AnchorSet) Listed(c *x509.Certificate) []Anchor {
	if s == nil || c == nil {
		return nil
	}
	var out []Anchor
	for _, i := range s.bySubjectOf(nameKey(c.RawSubject)) {
		if a := s.anchors[i]; !a.Private && sameEntity(a.Certificate, c) {
			out = append(out, a)
		}
	}
	return out
}
