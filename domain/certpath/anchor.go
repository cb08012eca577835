package certpath

import (
	"bytes"
	"crypto/x509"
	"time"

	"github.com/svc-dss/dss/domain/trust"
)

// An Anchor is a trust anchor: a certificate with where it came from.
//
// An anchor from a trusted list carries the service that lists it, so a
// later step can judge the service's type and status at a time; a private
// anchor carries none. Anchors are read-only values: Service is shared
// between the anchors of one service and must not be modified.
type Anchor struct {
	Certificate *x509.Certificate
	// Framework is the framework of the list the anchor came from
	// (EU_EIDAS, CH_ZERTES), or trust.Unknown for a private anchor.
	Framework trust.Framework
	// Territory is the list's scheme territory ("DE", "CH"…), "" for a
	// private anchor.
	Territory string
	// Private is true for an administrator-supplied anchor.
	Private bool
	// Authenticated is true when the copy of the list the anchor came
	// from was positively authenticated by its own signature (VALID).
	// It is the anchor's own fact: two lists may share a territory.
	Authenticated bool
	// Service is the trust service whose digital identity holds the
	// certificate (type, status, status history with start times); nil
	// for a private anchor.
	Service *trust.Service
	// SwissListed is true on a non-Swiss anchor whose certificate (same
	// subject and SubjectPublicKeyInfo) is also on the Swiss list: it is
	// assessed with Swiss precedence (validation-service.md §2 rule 3),
	// and [Build] puts the path to the CH anchor first.
	SwissListed bool
}

// rank orders anchors for path selection: CH_ZERTES, EU_EIDAS, other
// public lists, private.
func (a Anchor) rank() int {
	switch {
	case a.Private:
		return 3
	case a.Framework == trust.CHZERTES:
		return 0
	case a.Framework == trust.EUEIDAS:
		return 1
	}
	return 2
}

// AnchorsFrom returns the anchors of snap: every certificate of the
// digital identity of every service of every held list, in the list's
// current identity and in its history (CA/QC, CA/PKC, NationalRootCA-QC,
// TSA/QTST, OCSP and CRL services… all kept; Anchor.Service says which),
// and, when the private CA is enabled, every private anchor.
//
// The parser is injected so that the adapters' lenient certificate parser
// can be used; certificates it rejects, and lists without a usable copy,
// yield no anchor. A certificate appearing twice in one service's identity
// and history yields one anchor for that service; the same certificate in
// two services, or two lists, yields one anchor each.
//
// Order: anchors from CH_ZERTES lists first, then the other lists in the
// snapshot's order, then private anchors, each in the order listed. A
// non-Swiss anchor whose certificate is also on a Swiss list is marked
// [Anchor.SwissListed]. AnchorsFrom does not judge service status or
// anchor validity; a nil snap yields no anchor.
func AnchorsFrom(snap *trust.Snapshot, parse func(der []byte) (*x509.Certificate, error)) []Anchor {
	if snap == nil || parse == nil {
		return nil
	}
	var swiss, other []Anchor
	for _, ls := range snap.Lists {
		if ls.List == nil {
			continue
		}
		for _, p := range ls.List.Providers {
			for i := range p.Services {
				svc := p.Services[i] // a copy the anchors share
				for _, der := range serviceCertificates(&svc) {
					cert, err := parse(der)
					if err != nil || cert == nil {
						continue
					}
					a := Anchor{Certificate: cert, Framework: ls.Framework, Territory: ls.Territory, Service: &svc,
						Authenticated: ls.Authenticity == trust.AuthValid}
					if ls.Framework == trust.CHZERTES {
						swiss = append(swiss, a)
					} else {
						other = append(other, a)
					}
				}
			}
		}
	}
	for i := range other {
		for _, s := range swiss {
			if sameEntity(other[i].Certificate, s.Certificate) {
				other[i].SwissListed = true
				break
			}
		}
	}
	out := append(swiss, other...)
	if snap.PrivateCA.Enabled {
		for _, pa := range snap.PrivateCA.Anchors {
			cert, err := parse(pa.Certificate)
			if err != nil || cert == nil {
				continue
			}
			out = append(out, Anchor{Certificate: cert, Framework: trust.Unknown, Private: true})
		}
	}
	return out
}

// serviceCertificates returns the distinct certificates of svc's current
// identity and of its history, in that order.
func serviceCertificates(svc *trust.Service) [][]byte {
	var out [][]byte
	add := func(ders [][]byte) {
		for _, d := range ders {
			if len(d) == 0 {
				continue
			}
			dup := false
			for _, o := range out {
				if bytes.Equal(o, d) {
					dup = true
					break
				}
			}
			if !dup {
				out = append(out, d)
			}
		}
	}
	add(svc.Identity.Certificates)
	for _, h := range svc.History {
		add(h.Identity.Certificates)
	}
	return out
}

// sameEntity reports whether a and b are the same CA entity: the same
// subject and the same SubjectPublicKeyInfo (a re-issued certificate for
// the same key counts).
func sameEntity(a, b *x509.Certificate) bool {
	return bytes.Equal(a.Raw, b.Raw) ||
		bytes.Equal(a.RawSubjectPublicKeyInfo, b.RawSubjectPublicKeyInfo) && namesMatch(a.RawSubject, b.RawSubject)
}

// NotApprovedAt reports whether a's service was in a status other than an
// approved one ([trust.Status.Approved]: granted, accredited…) at t, and
// returns that status's period: a CA whose service was withdrawn before
// t is no trust anchor for an object that existed at t, one withdrawn
// after t still is (EN 319 102-1 §5.2.4 and TS 119 615 §4.3, as DSS's
// trust service status check; decision 0018).
//
// A private anchor, an anchor without a service, and a time before every
// status its list gives, are not judged: NotApprovedAt returns false.
// The caller chooses t: the best-signature-time for a signer's path, the
// generation time for a time-stamp's.
func (a Anchor) NotApprovedAt(t time.Time) (trust.Period, bool) {
	if a.Private || a.Service == nil {
		return trust.Period{}, false
	}
	p, ok := a.Service.StatusAt(t)
	if !ok || p.Status.Approved() {
		return trust.Period{}, false
	}
	return p, true
}
