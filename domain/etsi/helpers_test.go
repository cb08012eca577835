package etsi_test

import (
	"crypto/x509"
	"sync"
	"testing"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// vt is the pinned validation time of every test.
var vt = pki.ReferenceTime

var fixture = sync.OnceValues(func() (*pki.PKI, error) { return pki.New("http://127.0.0.1:9") })

func newPKI(t *testing.T) *pki.PKI {
	t.Helper()
	p, err := fixture()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var untrusted = sync.OnceValues(func() (*cades.UntrustedChain, error) {
	p, err := fixture()
	if err != nil {
		return nil, err
	}
	return cades.NewUntrustedChain(p, p.SignerRSA)
})

func newUntrusted(t *testing.T) *cades.UntrustedChain {
	t.Helper()
	u, err := untrusted()
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func euAnchor(p *pki.PKI) certpath.Anchor {
	return certpath.Anchor{Certificate: p.Root.Certificate, Framework: trust.EUEIDAS, Territory: "DE", Authenticated: true}
}

// signature is a well-formed B-level CAdES signature by id, signed a day
// before vt.
func signature(id *pki.Identity) ades.Signature {
	return ades.Signature{
		ID:                 "S-1",
		Format:             ades.CAdES,
		Level:              ades.LevelB,
		DataObjects:        []ades.DataObject{{Name: "content", Found: true, Intact: true, DigestAlgorithm: "SHA-256"}},
		Value:              ades.Check{Done: true, Valid: true, Algorithm: "RSA-SHA256"},
		SigningCertificate: id.Certificate,
		Reference:          ades.CertificateReference{Present: true, DigestMatched: true, IssuerSerialPresent: true, IssuerSerialMatched: true},
		ClaimedSigningTime: vt.Add(-24 * time.Hour),
		Certificates:       []*x509.Certificate{id.Certificate, id.Issuer.Certificate},
	}
}

func timestamp(typ ades.TimestampType, gen time.Time, tsa *x509.Certificate) ades.Timestamp {
	return ades.Timestamp{
		Type:           typ,
		GenTime:        gen,
		Imprint:        ades.Check{Done: true, Valid: true, Algorithm: "SHA-256"},
		Value:          ades.Check{Done: true, Valid: true, Algorithm: "RSA-SHA256"},
		TSACertificate: tsa,
	}
}

// fact is a revocation fact about c issued by its issuer, produced an hour
// before vt.
func fact(c, issuer *x509.Certificate, status revocation.Status, embedded bool) revocation.Fact {
	return revocation.Fact{
		Certificate: c, Issuer: issuer, Source: revocation.OCSP, Embedded: embedded, Status: status,
		ProducedAt: vt.Add(-time.Hour), ThisUpdate: vt.Add(-time.Hour), NextUpdate: vt.Add(24 * time.Hour),
		Signer: issuer,
	}
}

// goodFacts are GOOD facts for every link Needs returns.
func goodFacts(sig ades.Signature, in etsi.Inputs, embedded bool) map[string][]revocation.Fact {
	out := map[string][]revocation.Fact{}
	for _, l := range etsi.Needs(sig, in) {
		out[etsi.Key(l.Cert)] = append(out[etsi.Key(l.Cert)], fact(l.Cert, l.Issuer, revocation.Good, embedded))
	}
	return out
}

func inputs(p *pki.PKI) etsi.Inputs {
	return etsi.Inputs{
		Anchors:       certpath.NewAnchorSet([]certpath.Anchor{euAnchor(p)}),
		Intermediates: []*x509.Certificate{p.Intermediate.Certificate},
	}
}

func codes(ms []verdict.Message) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Code)
	}
	return out
}
