package etsi_test

import (
	"crypto/x509"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/fixtures/pki"
)

// The readers report LT when the structure holds revocation data; the
// process checks that the embedded data covers every link of the signer's
// chain below the anchor (chainEmbedded), and lowers EvidenceLevel when
// it does not. signatureFormat (sig.Level) is never changed.
func TestLevelChainCoverage(t *testing.T) {
	t.Parallel()
	tsGen := vt.Add(-12 * time.Hour)
	lt := func(p *pki.PKI) ades.Signature {
		sig := signature(p.SignerRSA)
		sig.Level = ades.LevelLT
		sig.ClaimedSigningTime = tsGen.Add(-time.Minute)
		sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
		return sig
	}
	// facts are GOOD facts for every link Needs returns, embedded for the
	// certificates in embedded, fetched for the others; none for those in
	// skip (not looked up).
	facts := func(sig ades.Signature, in etsi.Inputs, embedded, skip []*x509.Certificate) map[string][]revocation.Fact {
		out := map[string][]revocation.Fact{}
		for _, l := range etsi.Needs(sig, in) {
			if slices.ContainsFunc(skip, l.Cert.Equal) {
				continue
			}
			f := fact(l.Cert, l.Issuer, revocation.Good, slices.ContainsFunc(embedded, l.Cert.Equal))
			out[etsi.Key(l.Cert)] = append(out[etsi.Key(l.Cert)], f)
		}
		return out
	}
	tests := []struct {
		name  string
		build func(p *pki.PKI) (ades.Signature, etsi.Inputs)
		want  ades.Level
	}{
		{"the document's data covers the signer and its CA: LT", func(p *pki.PKI) (ades.Signature, etsi.Inputs) {
			sig, in := lt(p), inputs(p)
			in.Revocation = facts(sig, in, []*x509.Certificate{p.SignerRSA.Certificate, p.Intermediate.Certificate}, nil)
			return sig, in
		}, ades.LevelLT},
		{"the CA's data was fetched, not embedded: T", func(p *pki.PKI) (ades.Signature, etsi.Inputs) {
			sig, in := lt(p), inputs(p)
			in.Revocation = facts(sig, in, []*x509.Certificate{p.SignerRSA.Certificate}, nil)
			return sig, in
		}, ades.LevelT},
		{"the signer's data was fetched, not embedded: T", func(p *pki.PKI) (ades.Signature, etsi.Inputs) {
			sig, in := lt(p), inputs(p)
			in.Revocation = facts(sig, in, []*x509.Certificate{p.Intermediate.Certificate}, nil)
			return sig, in
		}, ades.LevelT},
		{"the CA is the anchor: the signer's data is the whole chain's: LT", func(p *pki.PKI) (ades.Signature, etsi.Inputs) {
			sig := lt(p)
			in := etsi.Inputs{Anchors: certpath.NewAnchorSet([]certpath.Anchor{{Certificate: p.Intermediate.Certificate, Territory: "DE", Authenticated: true}})}
			in.Revocation = facts(sig, in, []*x509.Certificate{p.SignerRSA.Certificate}, nil)
			return sig, in
		}, ades.LevelLT},
		{"a link not looked up counts as covered: LT", func(p *pki.PKI) (ades.Signature, etsi.Inputs) {
			sig, in := lt(p), inputs(p)
			in.Revocation = facts(sig, in, []*x509.Certificate{p.SignerRSA.Certificate}, []*x509.Certificate{p.Intermediate.Certificate})
			return sig, in
		}, ades.LevelLT},
		{"a signer that reaches no anchor: LT taken as found", func(p *pki.PKI) (ades.Signature, etsi.Inputs) {
			return lt(p), etsi.Inputs{Revocation: map[string][]revocation.Fact{}}
		}, ades.LevelLT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig, in := tt.build(newPKI(t))
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
			is.Equal(r.EvidenceLevel, tt.want)
			is.Equal(slices.Contains(codes(r.Warnings), etsi.CodeLevelNotSupported), tt.want < sig.Level)
		})
	}
}
