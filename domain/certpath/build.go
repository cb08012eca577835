package certpath

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"fmt"
	"slices"
	"strings"
)

// Options are the inputs of [Build] besides the certificate, in the style
// of x509.VerifyOptions. The zero value is valid and finds no path except
// through anchors.
type Options struct {
	// Intermediates are the candidate issuing certificates: those embedded
	// in the signature and any the caller fetched. Zero: none. Nil
	// entries are not allowed.
	Intermediates []*x509.Certificate
	// Anchors are the trust anchors, as [AnchorsFrom] returns them.
	// Zero: none, and Build finds no path. Anchors without a certificate
	// are not allowed.
	Anchors []Anchor
	// AnchorSet is the trust anchors already indexed, in place of
	// Anchors: a caller that builds many paths over the same anchors
	// indexes them once. Set one or the other.
	AnchorSet *AnchorSet
	// CheckSignature verifies child's signature with its issuer's public
	// key. Zero means crypto/x509: x509.Certificate.CheckSignature with
	// parentKey over child's TBSCertificate, which (unlike
	// CheckSignatureFrom) accepts SHA-1 and judges neither the issuer's
	// basic constraints nor its key usage: algorithm acceptability is the
	// cryptographic-constraints step's, and CA checks are [Check]'s.
	// Inject one to verify keys crypto/x509 cannot (brainpool, RSA-PSS
	// parameters the adapters parse).
	CheckSignature func(child *x509.Certificate, parentKey crypto.PublicKey) error
}

// Validate reports whether o can be used.
func (o Options) Validate() error {
	for i, c := range o.Intermediates {
		if c == nil {
			return fmt.Errorf("%w: Intermediates[%d] is nil", ErrInvalidOptions, i)
		}
	}
	if len(o.Anchors) > 0 && o.AnchorSet != nil {
		return fmt.Errorf("%w: both Anchors and AnchorSet are set", ErrInvalidOptions)
	}
	for i, a := range o.Anchors {
		if a.Certificate == nil {
			return fmt.Errorf("%w: Anchors[%d] has no certificate", ErrInvalidOptions, i)
		}
	}
	return nil
}

// A Path is a certificate path: Certificates from the leaf (index 0) to
// the certificate of Anchor (last). For a trusted leaf, Certificates holds
// only the leaf, which is Anchor's certificate or the same entity (same
// subject and key).
type Path struct {
	Certificates []*x509.Certificate
	Anchor       Anchor
}

// Leaf returns the path's first certificate.
func (p Path) Leaf() *x509.Certificate {
	if len(p.Certificates) == 0 {
		return nil
	}
	return p.Certificates[0]
}

// A Link is a certificate of a path with its issuer on that path.
type Link struct {
	Cert, Issuer *x509.Certificate
}

// Links returns each certificate of p but the anchor's, with its issuer:
// the (certificate, issuer) pairs whose revocation status the caller must
// establish (EN 319 102-1 §5.2.6 revocation checks; the anchor itself is
// not checked). A trusted leaf has no links.
func (p Path) Links() []Link {
	if len(p.Certificates) < 2 {
		return nil
	}
	out := make([]Link, 0, len(p.Certificates)-1)
	for i := 0; i+1 < len(p.Certificates); i++ {
		out = append(out, Link{Cert: p.Certificates[i], Issuer: p.Certificates[i+1]})
	}
	return out
}

// Build returns every candidate path from leaf to an anchor, best first,
// or a [*NoChainError] with the closest miss when there is none.
//
// A path ends at an anchor: the leaf itself when it is an anchor (same
// certificate, or same subject and key), or an issuer found among
// opts.Anchors. Issuers are looked up among opts.Anchors and
// opts.Intermediates by name (issuer equal to subject byte for byte, or
// after normalisation); a candidate whose subject key identifier differs
// from the child's authority key identifier is tried after the others. Each
// link's signature is verified with opts.CheckSignature; a certificate
// already on the path (same subject and key) is never added again, so
// cross-signed loops end. The work is bounded by [MaxSignatureChecks],
// [MaxPathCertificates] and [MaxPaths]; when a bound stops the search,
// the paths found so far are returned.
//
// Order: paths to CH_ZERTES anchors first, then EU_EIDAS, then other
// public lists, then private anchors; then shorter paths first; ties are
// broken by the certificates' bytes, then by territory and service type,
// so the order does not depend on the order of the inputs as long as no
// bound stopped the search.
//
// Build runs no X.509 checks besides signatures and names: run [Check] on
// the path chosen. It does not fetch, check revocation or judge trust
// service status.
func Build(leaf *x509.Certificate, opts Options) ([]Path, error) {
	if leaf == nil {
		return nil, fmt.Errorf("%w: nil certificate", ErrInvalidOptions)
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	b := &builder{opts: opts, cache: map[linkKey]error{}, anchors: opts.AnchorSet}
	if b.anchors == nil {
		b.anchors = NewAnchorSet(opts.Anchors)
	}
	if b.opts.CheckSignature == nil {
		b.opts.CheckSignature = x509Signature
	}
	b.index()
	// The same entity has the same subject: the index finds it.
	for _, i := range b.anchors.bySubjectOf(b.nameKey(leaf.RawSubject)) {
		if a := b.anchors.anchors[i]; sameEntity(leaf, a.Certificate) {
			b.paths = append(b.paths, Path{Certificates: []*x509.Certificate{leaf}, Anchor: a})
		}
	}
	b.extend([]*x509.Certificate{leaf})
	if len(b.paths) == 0 {
		return nil, &NoChainError{Leaf: leaf, Closest: b.closest}
	}
	sortPaths(b.paths)
	return b.paths, nil
}

// x509Signature is the default Options.CheckSignature.
func x509Signature(child *x509.Certificate, parentKey crypto.PublicKey) error {
	parent := &x509.Certificate{PublicKey: parentKey}
	return parent.CheckSignature(child.SignatureAlgorithm, child.RawTBSCertificate, child.Signature)
}

type linkKey struct{ child, parent string }

type builder struct {
	opts      Options
	anchors   *AnchorSet
	bySubject map[string][]candidate // intermediates
	cache     map[linkKey]error
	// names memoises nameKey within the build: the same few issuer
	// names recur for every candidate.
	names   map[string]string
	checks  int
	stopped bool
	paths   []Path
	closest Miss
}

// nameKey is nameKey, computed once per name in the build.
func (b *builder) nameKey(der []byte) string {
	if k, ok := b.names[string(der)]; ok {
		return k
	}
	if b.names == nil {
		b.names = map[string]string{}
	}
	k := nameKey(der)
	b.names[string(der)] = k
	return k
}

// candidate is a possible issuer: an anchor (index into the anchor set)
// or an intermediate.
type candidate struct {
	cert   *x509.Certificate
	anchor int // -1 for an intermediate
}

// index files the distinct intermediates by normalised subject, in input
// order; the anchors are indexed in their set.
func (b *builder) index() {
	b.bySubject = map[string][]candidate{}
	seen := map[string]bool{}
	for _, c := range b.opts.Intermediates {
		if seen[string(c.Raw)] {
			continue
		}
		seen[string(c.Raw)] = true
		k := b.nameKey(c.RawSubject)
		b.bySubject[k] = append(b.bySubject[k], candidate{cert: c, anchor: -1})
	}
}

// candidates returns the possible issuers of c: those whose subject
// matches c's issuer name; those whose key identifier agrees with c's
// authority key identifier (or where either is absent) before the others.
func (b *builder) candidates(c *x509.Certificate) []candidate {
	key := b.nameKey(c.RawIssuer)
	// Anchors first, each in input order.
	var all []candidate
	for _, i := range b.anchors.bySubjectOf(key) {
		all = append(all, candidate{cert: b.anchors.anchors[i].Certificate, anchor: i})
	}
	all = append(all, b.bySubject[key]...)
	out := make([]candidate, 0, len(all))
	var later []candidate
	for _, cand := range all {
		if len(c.AuthorityKeyId) == 0 || len(cand.cert.SubjectKeyId) == 0 || bytes.Equal(c.AuthorityKeyId, cand.cert.SubjectKeyId) {
			out = append(out, cand)
		} else {
			later = append(later, cand)
		}
	}
	return append(out, later...)
}

// verify checks the signature of child by parent, counting and caching;
// run is false when the check limit stopped it.
func (b *builder) verify(child, parent *x509.Certificate) (run bool, err error) {
	k := linkKey{string(child.Raw), string(parent.Raw)}
	if err, ok := b.cache[k]; ok {
		return true, err
	}
	if b.checks >= MaxSignatureChecks {
		b.stopped = true
		return false, nil
	}
	b.checks++
	err = b.opts.CheckSignature(child, parent.PublicKey)
	b.cache[k] = err
	return true, err
}

// miss records m if it is closer than the closest so far: a longer
// partial path wins, then the more telling kind (missRank).
func (b *builder) miss(m Miss) {
	if b.closest.Kind == MissLimit {
		return
	}
	if m.Kind == MissLimit || b.closest.Kind == 0 ||
		len(m.Partial) > len(b.closest.Partial) ||
		len(m.Partial) == len(b.closest.Partial) && missRank(m.Kind) > missRank(b.closest.Kind) {
		m.Partial = slices.Clone(m.Partial)
		b.closest = m
	}
}

// missRank orders the kinds at equal depth. A miss where the issuer's
// key verified (a self-signed end, a loop) names the real issuer, so it
// beats a candidate with the right name and another key: a document
// often carries several CAs of one name (a renewed root), and blaming
// the one with the wrong key hides the real end of the chain.
func missRank(k MissKind) int {
	switch k {
	case MissSelfSigned:
		return 5
	case MissLoop:
		return 4
	case MissSignature:
		return 3
	case MissTooLong:
		return 2
	case MissIssuerNotFound:
		return 1
	}
	return 0
}

// extend searches depth first for issuers of the last certificate of
// chain.
func (b *builder) extend(chain []*x509.Certificate) {
	c := chain[len(chain)-1]
	cands := b.candidates(c)
	if selfIssued(c) && !slices.ContainsFunc(cands, func(x candidate) bool { return sameEntity(x.cert, c) }) {
		// c may be its own issuer even when the caller did not pass it
		// among the intermediates: a self-signed leaf that is no anchor.
		cands = append(cands, candidate{cert: c, anchor: -1})
	}
	if len(cands) == 0 {
		b.miss(Miss{Kind: MissIssuerNotFound, Partial: chain})
		return
	}
	for _, cand := range cands {
		if b.stopped || len(b.paths) >= MaxPaths {
			return
		}
		if onPath(chain, cand.cert) {
			// A candidate already on the path is the issuer only if
			// its key verifies c: then c is self-signed (the
			// candidate is c's own entity) or the path loops; if it
			// does not, it is a candidate with another key.
			run, err := b.verify(c, cand.cert)
			switch {
			case !run:
				b.miss(Miss{Kind: MissLimit, Partial: chain})
				return
			case err != nil:
				b.miss(Miss{Kind: MissSignature, Partial: chain, Issuer: cand.cert, Err: err})
			case sameEntity(c, cand.cert):
				b.miss(Miss{Kind: MissSelfSigned, Partial: chain, Issuer: cand.cert})
			default:
				b.miss(Miss{Kind: MissLoop, Partial: chain, Issuer: cand.cert})
			}
			continue
		}
		if len(chain) >= MaxPathCertificates {
			b.miss(Miss{Kind: MissTooLong, Partial: chain})
			continue
		}
		run, err := b.verify(c, cand.cert)
		if !run {
			b.miss(Miss{Kind: MissLimit, Partial: chain})
			return
		}
		if err != nil {
			b.miss(Miss{Kind: MissSignature, Partial: chain, Issuer: cand.cert, Err: err})
			continue
		}
		next := append(slices.Clip(chain), cand.cert)
		if cand.anchor >= 0 {
			b.paths = append(b.paths, Path{Certificates: next, Anchor: b.anchors.anchors[cand.anchor]})
			continue
		}
		b.extend(next)
	}
}

// onPath reports whether the entity of c is already on chain.
func onPath(chain []*x509.Certificate, c *x509.Certificate) bool {
	for _, x := range chain {
		if sameEntity(x, c) {
			return true
		}
	}
	return false
}

// sortPaths orders paths as [Build] documents.
func sortPaths(paths []Path) {
	slices.SortStableFunc(paths, func(x, y Path) int {
		if d := x.Anchor.rank() - y.Anchor.rank(); d != 0 {
			return d
		}
		if d := len(x.Certificates) - len(y.Certificates); d != 0 {
			return d
		}
		for i := range x.Certificates {
			if d := bytes.Compare(x.Certificates[i].Raw, y.Certificates[i].Raw); d != 0 {
				return d
			}
		}
		if d := bytes.Compare(x.Anchor.Certificate.Raw, y.Anchor.Certificate.Raw); d != 0 {
			return d
		}
		if d := strings.Compare(x.Anchor.Territory, y.Anchor.Territory); d != 0 {
			return d
		}
		return int(serviceType(x.Anchor)) - int(serviceType(y.Anchor))
	})
}

func serviceType(a Anchor) uint8 {
	if a.Service == nil {
		return 0
	}
	return uint8(a.Service.Type)
}
