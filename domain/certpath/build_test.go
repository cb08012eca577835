package certpath_test

import (
	"crypto"
	"crypto/x509"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

func TestBuild(t *testing.T) {
	t.Parallel()
	p := fx(t)
	root, inter, signer := p.Root.Certificate, p.Intermediate.Certificate, p.SignerRSA.Certificate

	// A certificate with the intermediate's name (and AKI) but signed by
	// a freshly generated key.
	forged := forge(t, inter)

	tests := []struct {
		name    string
		leaf    *x509.Certificate
		opts    certpath.Options
		want    [][]string // common names of every path, in order
		miss    certpath.MissKind
		partial int // length of the closest miss's partial path
		issuer  *x509.Certificate
	}{
		{
			name: "leaf to intermediate to root anchor",
			leaf: signer,
			opts: certpath.Options{Intermediates: []*x509.Certificate{inter}, Anchors: []certpath.Anchor{private(root)}},
			want: [][]string{{"Test Signer RSA", "SVC DSS Test Issuing CA", "SVC DSS Test Root CA"}},
		},
		{
			name: "ECDSA leaf to root anchor",
			leaf: p.SignerECDSA.Certificate,
			opts: certpath.Options{Intermediates: []*x509.Certificate{inter}, Anchors: []certpath.Anchor{private(root)}},
			want: [][]string{{"Test Signer ECDSA", "SVC DSS Test Issuing CA", "SVC DSS Test Root CA"}},
		},
		{
			name: "anchor is the intermediate",
			leaf: signer,
			opts: certpath.Options{Anchors: []certpath.Anchor{private(inter)}},
			want: [][]string{{"Test Signer RSA", "SVC DSS Test Issuing CA"}},
		},
		{
			name: "intermediate is an anchor and embedded: both paths, shorter first",
			leaf: signer,
			opts: certpath.Options{Intermediates: []*x509.Certificate{inter}, Anchors: []certpath.Anchor{private(root), private(inter)}},
			want: [][]string{
				{"Test Signer RSA", "SVC DSS Test Issuing CA"},
				{"Test Signer RSA", "SVC DSS Test Issuing CA", "SVC DSS Test Root CA"},
			},
		},
		{
			name: "trusted leaf",
			leaf: signer,
			opts: certpath.Options{Anchors: []certpath.Anchor{private(signer)}},
			want: [][]string{{"Test Signer RSA"}},
		},
		{
			name: "trusted self-signed root as leaf",
			leaf: root,
			opts: certpath.Options{Anchors: []certpath.Anchor{private(root)}},
			want: [][]string{{"SVC DSS Test Root CA"}},
		},
		{
			name:    "missing intermediate",
			leaf:    signer,
			opts:    certpath.Options{Anchors: []certpath.Anchor{private(root)}},
			miss:    certpath.MissIssuerNotFound,
			partial: 1,
		},
		{
			name:    "no anchors",
			leaf:    signer,
			opts:    certpath.Options{Intermediates: []*x509.Certificate{inter}},
			miss:    certpath.MissIssuerNotFound,
			partial: 2,
		},
		{
			name:    "wrong issuer key",
			leaf:    forged,
			opts:    certpath.Options{Intermediates: []*x509.Certificate{inter}, Anchors: []certpath.Anchor{private(root)}},
			miss:    certpath.MissSignature,
			partial: 1,
			issuer:  inter,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			paths, err := certpath.Build(tt.leaf, tt.opts)
			if tt.miss == 0 {
				is.NoErr(err)
				var got [][]string
				for _, p := range paths {
					got = append(got, cns(p))
				}
				is.Equal(got, tt.want)
				return
			}
			is.Equal(len(paths), 0)
			var nc *certpath.NoChainError
			is.True(errors.As(err, &nc))
			is.Equal(nc.Closest.Kind, tt.miss)
			is.Equal(len(nc.Closest.Partial), tt.partial)
			is.Equal(nc.Closest.Issuer, tt.issuer)
			is.Equal(nc.Reason(), certpath.ReasonNoChain)
			is.Equal(nc.SubIndication(), verdict.SubNoCertificateChainFound)
			t.Log(err)
		})
	}
}

// TestBuildClosestMissMessages checks that the hint names the problem.
func TestBuildClosestMissMessages(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fx(t)
	_, err := certpath.Build(p.SignerRSA.Certificate, certpath.Options{Anchors: []certpath.Anchor{private(p.Root.Certificate)}})
	is.Equal(err.Error(), "certpath: no certificate chain found for CN=Test Signer RSA,O=SVC DSS Test,C=DE: "+
		"at CN=Test Signer RSA,O=SVC DSS Test,C=DE (depth 0): "+
		"issuer CN=SVC DSS Test Issuing CA,O=SVC DSS Test,C=CH not among anchors or intermediates")

	forged := forge(t, p.Intermediate.Certificate)
	_, err = certpath.Build(forged, certpath.Options{
		Intermediates: []*x509.Certificate{p.Intermediate.Certificate},
		Anchors:       []certpath.Anchor{private(p.Root.Certificate)},
	})
	var nc *certpath.NoChainError
	is.True(errors.As(err, &nc))
	is.True(nc.Closest.Err != nil)                    // the signature error is kept
	is.True(errors.Is(err, nc.Closest.Err))           // and unwrapped
	is.True(len(err.Error()) > len("certpath: no c")) // message present
	t.Log(err)
}

// TestBuildLoop builds through two CAs cross-signed by each other.
func TestBuildLoop(t *testing.T) {
	t.Parallel()
	keyA, keyB, keyR := newKey(t), newKey(t), newKey(t)
	tA, tB := tmpl("CA A", true), tmpl("CA B", true)
	selfA := issue(t, tA, keyA, nil) // only to sign with A's name and key
	selfB := issue(t, tB, keyB, nil)
	aByB := issue(t, tmpl("CA A", true), keyA, selfB).cert
	bByA := issue(t, tmpl("CA B", true), keyB, selfA).cert
	root := issue(t, tmpl("Root R", true), keyR, nil)
	bByR := issue(t, tmpl("CA B", true), keyB, root).cert
	leaf := issue(t, tmpl("Leaf", false), newKey(t), selfA).cert

	t.Run("no anchor reachable: terminates with a loop miss", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		paths, err := certpath.Build(leaf, certpath.Options{
			Intermediates: []*x509.Certificate{aByB, bByA},
			Anchors:       []certpath.Anchor{private(root.cert)},
		})
		is.Equal(len(paths), 0)
		var nc *certpath.NoChainError
		is.True(errors.As(err, &nc))
		is.Equal(nc.Closest.Kind, certpath.MissLoop)
		is.Equal(len(nc.Closest.Partial), 3) // leaf, A by B, B by A
	})
	t.Run("anchor reachable past the loop", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		paths, err := certpath.Build(leaf, certpath.Options{
			Intermediates: []*x509.Certificate{aByB, bByA, bByR},
			Anchors:       []certpath.Anchor{private(root.cert)},
		})
		is.NoErr(err)
		is.Equal(len(paths), 1)
		is.Equal(cns(paths[0]), []string{"Leaf", "CA A", "CA B", "Root R"})
		is.Equal(paths[0].Certificates[2], bByR)
	})
}

// TestBuildSignatureLimit offers more same-named candidate issuers than
// MaxSignatureChecks allows, the real one last.
func TestBuildSignatureLimit(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fx(t)
	inter := p.Intermediate.Certificate
	key := newKey(t)
	var cands []*x509.Certificate
	for range certpath.MaxSignatureChecks + 20 {
		c := tmpl("", true)
		c.Subject = inter.Subject
		c.SubjectKeyId = inter.SubjectKeyId // so the AKI prefers none of them
		cands = append(cands, issue(t, c, key, nil).cert)
	}
	calls := 0
	opts := certpath.Options{
		Intermediates: append(cands, inter),
		Anchors:       []certpath.Anchor{private(p.Root.Certificate)},
		CheckSignature: func(child *x509.Certificate, parentKey crypto.PublicKey) error {
			calls++
			parent := &x509.Certificate{PublicKey: parentKey}
			return parent.CheckSignature(child.SignatureAlgorithm, child.RawTBSCertificate, child.Signature)
		},
	}
	paths, err := certpath.Build(p.SignerRSA.Certificate, opts)
	is.Equal(len(paths), 0)
	var nc *certpath.NoChainError
	is.True(errors.As(err, &nc))
	is.Equal(nc.Closest.Kind, certpath.MissLimit)
	is.Equal(calls, certpath.MaxSignatureChecks)

	// Within the bound, the real issuer is found.
	opts.Intermediates = append(cands[:10:10], inter)
	paths, err = certpath.Build(p.SignerRSA.Certificate, opts)
	is.NoErr(err)
	is.Equal(len(paths), 1)
}

// TestBuildPathLengthBound chains more CAs than MaxPathCertificates.
func TestBuildPathLengthBound(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	root := issue(t, tmpl("Chain CA 0", true), newKey(t), nil)
	var inters []*x509.Certificate
	parent := root
	for i := 1; i <= certpath.MaxPathCertificates; i++ {
		parent = issue(t, tmpl(fmt.Sprintf("Chain CA %d", i), true), newKey(t), parent)
		inters = append(inters, parent.cert)
	}
	leaf := issue(t, tmpl("Deep Leaf", false), newKey(t), parent).cert
	_, err := certpath.Build(leaf, certpath.Options{Intermediates: inters, Anchors: []certpath.Anchor{private(root.cert)}})
	var nc *certpath.NoChainError
	is.True(errors.As(err, &nc))
	is.Equal(nc.Closest.Kind, certpath.MissTooLong)
	is.Equal(len(nc.Closest.Partial), certpath.MaxPathCertificates)
}

// TestBuildOrder checks the framework order and that it does not depend
// on the order of the inputs.
func TestBuildOrder(t *testing.T) {
	t.Parallel()
	p := fx(t)
	root, inter := p.Root.Certificate, p.Intermediate.Certificate
	anchors := []certpath.Anchor{
		private(root),
		listed(root, trust.EUEIDAS, "DE"),
		private(inter),
		listed(root, trust.CHZERTES, "CH"),
		listed(inter, trust.EUEIDAS, "AT"),
	}
	want := []string{
		"CH_ZERTES CH 3",
		"EU_EIDAS AT 2",
		"EU_EIDAS DE 3",
		"UNKNOWN  2 private",
		"UNKNOWN  3 private",
	}
	orders := map[string]func([]certpath.Anchor) []certpath.Anchor{
		"as given": func(a []certpath.Anchor) []certpath.Anchor { return a },
		"reversed": func(a []certpath.Anchor) []certpath.Anchor {
			b := slices.Clone(a)
			slices.Reverse(b)
			return b
		},
	}
	for name, order := range orders {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			paths, err := certpath.Build(p.SignerRSA.Certificate, certpath.Options{
				Intermediates: []*x509.Certificate{inter, inter},
				Anchors:       order(anchors),
			})
			is.NoErr(err)
			var got []string
			for _, pa := range paths {
				s := fmt.Sprintf("%s %s %d", pa.Anchor.Framework, pa.Anchor.Territory, len(pa.Certificates))
				if pa.Anchor.Private {
					s += " private"
				}
				got = append(got, s)
			}
			is.Equal(got, want) // the duplicate intermediate adds no path
		})
	}
}

func TestPathLinks(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fx(t)
	paths, err := certpath.Build(p.SignerRSA.Certificate, certpath.Options{
		Intermediates: []*x509.Certificate{p.Intermediate.Certificate},
		Anchors:       []certpath.Anchor{private(p.Root.Certificate)},
	})
	is.NoErr(err)
	is.Equal(paths[0].Links(), []certpath.Link{
		{Cert: p.SignerRSA.Certificate, Issuer: p.Intermediate.Certificate},
		{Cert: p.Intermediate.Certificate, Issuer: p.Root.Certificate},
	})
	is.Equal(paths[0].Leaf(), p.SignerRSA.Certificate)
	is.Equal(certpath.Path{Certificates: []*x509.Certificate{p.Root.Certificate}}.Links(), nil) // trusted leaf: nothing to ask
}

func TestOptionsValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts certpath.Options
		ok   bool
	}{
		{"zero", certpath.Options{}, true},
		{"nil intermediate", certpath.Options{Intermediates: []*x509.Certificate{nil}}, false},
		{"anchor without certificate", certpath.Options{Anchors: []certpath.Anchor{{Framework: trust.EUEIDAS}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			err := tt.opts.Validate()
			is.Equal(err == nil, tt.ok)
			if !tt.ok {
				is.True(errors.Is(err, certpath.ErrInvalidOptions))
			}
		})
	}
	_, err := certpath.Build(nil, certpath.Options{})
	is.New(t).True(errors.Is(err, certpath.ErrInvalidOptions))
}

// TestBuildNormalisedNames: an issuer name encoded differently (case,
// white space) from the issuer's subject still chains.
func TestBuildNormalisedNames(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	key := newKey(t)
	caT := tmpl("Case CA", true)
	ca := issue(t, caT, key, nil)
	alias := tmpl("", true)
	alias.Subject.CommonName = "  case   ca "
	alias.Subject.Organization = []string{"CERTPATH TEST"}
	alias.SubjectKeyId = ca.cert.SubjectKeyId
	aliasCA := issue(t, alias, key, nil)
	leaf := issue(t, tmpl("Leaf With Odd Issuer Name", false), newKey(t), aliasCA).cert
	is.True(string(leaf.RawIssuer) != string(ca.cert.RawSubject))

	paths, err := certpath.Build(leaf, certpath.Options{Anchors: []certpath.Anchor{private(ca.cert)}})
	is.NoErr(err)
	is.Equal(len(paths), 1)
	is.Equal(paths[0].Certificates[1], ca.cert)
	is.NoErr(certpath.Check(paths[0], tNotBefore.AddDate(1, 0, 0), certpath.CheckOptions{}))
}

// TestBuildClosestMissPlainWords pins the hint's words for the classes
// real documents show (issue 22, pades-029-three-sigs-T-LT.pdf): a chain
// that ends at a self-signed root that is no anchor, and a document that
// carries a CA of the issuer's name with another key beside the real
// issuer.
func TestBuildClosestMissPlainWords(t *testing.T) {
	t.Parallel()
	p := fx(t)
	elsewhere := private(p.Root.Certificate) // an anchor the chains below do not reach

	rootKey := newKey(t)
	root := issue(t, tmpl("Plain Root", true), rootKey, nil)
	// A renewed root: the same name, another key.
	otherRoot := issue(t, tmpl("Plain Root", true), newKey(t), nil)
	inter := issue(t, tmpl("Plain Issuing CA", true), newKey(t), root)
	// An issuing CA of the same name with another key, signed by the
	// renewed root.
	otherInter := issue(t, tmpl("Plain Issuing CA", true), newKey(t), otherRoot)
	leaf := issue(t, tmpl("Plain Signer", false), newKey(t), inter).cert
	selfLeaf := issue(t, tmpl("Plain Self-Signed Signer", false), newKey(t), nil).cert

	const untrusted = "which is on no trusted list and is not a configured anchor"
	tests := []struct {
		name          string
		leaf          *x509.Certificate
		intermediates []*x509.Certificate
		kind          certpath.MissKind
		partial       int
		issuer        *x509.Certificate
		msg           string
	}{
		{
			name:          "chain ends at a self-signed root that is no anchor",
			leaf:          leaf,
			intermediates: []*x509.Certificate{inter.cert, root.cert},
			kind:          certpath.MissSelfSigned, partial: 3, issuer: root.cert,
			msg: `certpath: no certificate chain found for CN=Plain Signer,O=certpath test: ` +
				`the chain ends at the self-signed root "CN=Plain Root,O=certpath test", ` + untrusted,
		},
		{
			name:          "self-signed root beside a same-name root with another key, that one first",
			leaf:          leaf,
			intermediates: []*x509.Certificate{otherRoot.cert, inter.cert, root.cert},
			kind:          certpath.MissSelfSigned, partial: 3, issuer: root.cert,
			msg: `certpath: no certificate chain found for CN=Plain Signer,O=certpath test: ` +
				`the chain ends at the self-signed root "CN=Plain Root,O=certpath test", ` + untrusted,
		},
		{
			name:          "self-signed root beside a same-name root with another key, that one last",
			leaf:          leaf,
			intermediates: []*x509.Certificate{inter.cert, root.cert, otherRoot.cert},
			kind:          certpath.MissSelfSigned, partial: 3, issuer: root.cert,
			msg: `certpath: no certificate chain found for CN=Plain Signer,O=certpath test: ` +
				`the chain ends at the self-signed root "CN=Plain Root,O=certpath test", ` + untrusted,
		},
		{
			name:          "real issuer found beside a same-name CA with another key; its own issuer missing",
			leaf:          leaf,
			intermediates: []*x509.Certificate{otherInter.cert, inter.cert},
			kind:          certpath.MissIssuerNotFound, partial: 2,
			msg: `certpath: no certificate chain found for CN=Plain Signer,O=certpath test: ` +
				`at CN=Plain Issuing CA,O=certpath test (depth 1): ` +
				`issuer CN=Plain Root,O=certpath test not among anchors or intermediates`,
		},
		{
			name:          "only a same-name CA with another key",
			leaf:          leaf,
			intermediates: []*x509.Certificate{otherInter.cert},
			kind:          certpath.MissSignature, partial: 1, issuer: otherInter.cert,
			msg: `certpath: no certificate chain found for CN=Plain Signer,O=certpath test: ` +
				`at CN=Plain Signer,O=certpath test (depth 0): ` +
				`the issuer CN=Plain Issuing CA,O=certpath test was not found: ` +
				`the certificate of that name that was found has another key`,
		},
		{
			name: "self-signed signing certificate that is no anchor",
			leaf: selfLeaf,
			kind: certpath.MissSelfSigned, partial: 1, issuer: selfLeaf,
			msg: `certpath: no certificate chain found for CN=Plain Self-Signed Signer,O=certpath test: ` +
				`the certificate is self-signed, and is on no trusted list and is not a configured anchor`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			paths, err := certpath.Build(tt.leaf, certpath.Options{
				Intermediates: tt.intermediates,
				Anchors:       []certpath.Anchor{elsewhere},
			})
			is.Equal(len(paths), 0)
			var nc *certpath.NoChainError
			is.True(errors.As(err, &nc))
			is.Equal(nc.Closest.Kind, tt.kind)
			is.Equal(len(nc.Closest.Partial), tt.partial)
			is.Equal(nc.Closest.Issuer, tt.issuer)
			is.Equal(err.Error(), tt.msg)
		})
	}
}
