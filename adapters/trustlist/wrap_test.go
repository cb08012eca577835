package trustlist_test

import (
	"bytes"
	"crypto/x509"
	"sync"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
)

var (
	wrapPKIOnce sync.Once
	wrapPKI     *pki.PKI
	wrapPKIErr  error
)

func fixturePKI(t *testing.T) *pki.PKI {
	t.Helper()
	wrapPKIOnce.Do(func() { wrapPKI, wrapPKIErr = pki.New("http://127.0.0.1:9") })
	if wrapPKIErr != nil {
		t.Fatal(wrapPKIErr)
	}
	return wrapPKI
}

// TestWrappedListsAreNeverValid rewraps a fixture list whose signature
// references its root by Id so that a new root with the attacker's CA as
// every service is what a reader finds, and checks that no variant comes
// out VALID. Before the reference resolver refused IDs claimed twice and
// the coverage was decided on the resolved node, the prefixed and xml:Id
// variants were VALID.
func TestWrappedListsAreNeverValid(t *testing.T) {
	t.Parallel()
	p := fixturePKI(t)
	issued := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	spec := tl.Spec{Territory: "DE", SequenceNumber: 7, IssueDate: issued, NextUpdate: issued.AddDate(0, 6, 0), SignRootByID: true,
		Services: []tl.Service{{Name: "Genuine CA", Certificate: p.Intermediate.Certificate, StatusStart: issued.AddDate(-1, 0, 0)}}}
	signed, err := tl.Sign(spec, p.SignerRSA, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkWrapped(t, signed, []*x509.Certificate{p.SignerRSA.Certificate}, p.SignerECDSA.Certificate.Raw)
}

// TestWrappedCorpusListsAreNeverValid does the same to the two real lists
// of the corpus that reference their root by Id, with their real signers:
// the BE list of 2019 (signers from the BE pointer of dss/lotl/eu-lotl.xml)
// and the PE list (from the Peruvian LOTL's pointer).
func TestWrappedCorpusListsAreNeverValid(t *testing.T) {
	t.Parallel()
	corpusDir(t)
	attackerCA := fixturePKI(t).SignerECDSA.Certificate.Raw
	t.Run("BE 2019", func(t *testing.T) {
		t.Parallel()
		checkWrapped(t, readCorpus(t, "dss/tl/lotlCache/BE.xml"), pointerSigners(t, parseCorpus(t, "dss/lotl/eu-lotl.xml"), "BE"), attackerCA)
	})
	t.Run("PE", func(t *testing.T) {
		t.Parallel()
		checkWrapped(t, readCorpus(t, "dss/tl/tsl-pe.xml"), pointerSigners(t, parseCorpus(t, "dss/lotl/peru-lotl.xml"), "PE"), attackerCA)
	})
}

// checkWrapped checks that signed is VALID with signers and that no
// wrapping of it is.
func checkWrapped(t *testing.T, signed []byte, signers []*x509.Certificate, attackerCA []byte) {
	t.Helper()
	if got := trustlist.Authenticate(signed, signers); got.Authenticity != trust.AuthValid {
		t.Fatalf("unwrapped: %+v, want VALID", got)
	}
	for _, w := range tl.Wrappings {
		wrapped, err := tl.Wrap(signed, attackerCA, w)
		if err != nil {
			t.Fatalf("%v: %v", w, err)
		}
		// The attack is real: what a reader of the root finds is the
		// attacker's list, every anchor the attacker's CA.
		parsed, err := trustlist.Parse(wrapped)
		if err != nil {
			t.Fatalf("%v: the wrapped list does not parse: %v", w, err)
		}
		if !onlyAnchor(parsed, attackerCA) {
			t.Fatalf("%v: the wrapped list's anchors are not the attacker's", w)
		}
		got := trustlist.Authenticate(wrapped, signers)
		if got.Authenticity != trust.AuthInvalid && got.Authenticity != trust.AuthIndeterminate {
			t.Errorf("%v: %v, want INVALID or INDETERMINATE", w, got.Authenticity)
		}
		if got.Reason == 0 {
			t.Errorf("%v: %v without a reason", w, got.Authenticity)
		}
		t.Logf("%v: %v %v", w, got.Authenticity, got.Reason)
	}
}

// pointerSigners returns the signer certificates the LOTL announces for
// territory.
func pointerSigners(t *testing.T, lotl trust.List, territory string) []*x509.Certificate {
	t.Helper()
	var out []*x509.Certificate
	for _, p := range trustlist.MemberLists(lotl) {
		if p.Territory != territory {
			continue
		}
		for _, der := range p.SignerCertificates {
			if c, err := cert.Parse(der); err == nil {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("the LOTL announces no signer for %s", territory)
	}
	return out
}

func onlyAnchor(l trust.List, der []byte) bool {
	n := 0
	for _, p := range l.Providers {
		for _, s := range p.Services {
			for _, c := range s.Identity.Certificates {
				if !bytes.Equal(c, der) {
					return false
				}
				n++
			}
		}
	}
	return n > 0
}

// TestSHA1ListSignature: a list signed with SHA-1 digests (the PE list)
// verifies, and the check says it uses SHA-1; judged by the cryptographic
// constraints today it vouches for nothing (INDETERMINATE), as it did
// before 2010. One signed with SHA-256 throughout (BE 2019) stays VALID.
func TestSHA1ListSignature(t *testing.T) {
	t.Parallel()
	corpusDir(t)
	pe := trustlist.Authenticate(readCorpus(t, "dss/tl/tsl-pe.xml"), pointerSigners(t, parseCorpus(t, "dss/lotl/peru-lotl.xml"), "PE"))
	if pe.Authenticity != trust.AuthValid || !pe.SHA1 {
		t.Errorf("PE: %+v, want VALID with SHA-1", pe)
	}
	be := trustlist.Authenticate(readCorpus(t, "dss/tl/lotlCache/BE.xml"), pointerSigners(t, parseCorpus(t, "dss/lotl/eu-lotl.xml"), "BE"))
	if be.Authenticity != trust.AuthValid || be.SHA1 {
		t.Errorf("BE: %+v, want VALID without SHA-1", be)
	}
	today := time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)
	if got := pe.Judged(algorithm.Default(), today); got.Authenticity != trust.AuthIndeterminate || got.Reason != trust.ReasonAlgorithmNotAcceptable {
		t.Errorf("PE judged today: %+v, want INDETERMINATE, ALGORITHM_NOT_ACCEPTABLE", got)
	}
	if got := pe.Judged(algorithm.Default(), time.Date(2009, time.June, 1, 0, 0, 0, 0, time.UTC)); got.Authenticity != trust.AuthValid {
		t.Errorf("PE judged in 2009: %+v, want VALID", got)
	}
	if got := be.Judged(algorithm.Default(), today); got.Authenticity != trust.AuthValid || len(got.Uses) < 2 {
		t.Errorf("BE judged today: %+v, want VALID, with the signature's algorithms listed", got)
	}
}
