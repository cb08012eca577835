package certpath_test

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	p := fx(t)
	fixturePath := func(id *pki.Identity) certpath.Path {
		return certpath.Path{Certificates: id.Chain(), Anchor: private(p.Root.Certificate)}
	}

	// A CA whose key usage lacks keyCertSign.
	noSignT := tmpl("CA Without keyCertSign", true)
	noSignT.KeyUsage = x509.KeyUsageCRLSign
	noSign := issue(t, noSignT, newKey(t), nil)
	noSignLeaf := issue(t, tmpl("Leaf Under CRL-only CA", false), newKey(t), noSign)

	// A root with pathLenConstraint 0 above an intermediate CA.
	pl0T := tmpl("Root PathLen 0", true)
	pl0T.MaxPathLen, pl0T.MaxPathLenZero = 0, true
	pl0 := issue(t, pl0T, newKey(t), nil)
	plInter := issue(t, tmpl("Intermediate Under PathLen 0", true), newKey(t), pl0)
	plLeaf := issue(t, tmpl("Leaf Too Deep", false), newKey(t), plInter)
	plDirect := issue(t, tmpl("Leaf Directly Under PathLen 0", false), newKey(t), pl0)

	// An issuer that is not a CA.
	notCA := issue(t, tmpl("Not A CA", false), newKey(t), nil)
	underNotCA := issue(t, tmpl("Leaf Under Non-CA", false), newKey(t), notCA)

	// A root that expires before the leaf it issued.
	shortT := tmpl("Short-Lived Root", true)
	shortT.NotAfter = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	short := issue(t, shortT, newKey(t), nil)
	underShort := issue(t, tmpl("Leaf Outliving Its Root", false), newKey(t), short)
	shortPath := certpath.Path{Certificates: []*x509.Certificate{underShort.cert, short.cert}}
	after := time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC)

	// A leaf with an unknown critical extension.
	critOID := asn1.ObjectIdentifier{1, 2, 3, 4, 5}
	critT := tmpl("Leaf With Critical Extension", false)
	critT.ExtraExtensions = []pkix.Extension{{Id: critOID, Critical: true, Value: []byte{0x05, 0x00}}}
	crit := issue(t, critT, newKey(t), ident(p.Intermediate))
	critPath := certpath.Path{Certificates: []*x509.Certificate{crit.cert, p.Intermediate.Certificate, p.Root.Certificate}}

	at := pki.ReferenceTime
	tests := []struct {
		name  string
		path  certpath.Path
		at    time.Time
		opts  certpath.CheckOptions
		check certpath.CheckKind // zero: no error
		index int
	}{
		{name: "valid RSA signer", path: fixturePath(p.SignerRSA), at: at},
		{name: "valid ECDSA qualified signer", path: fixturePath(p.SignerECDSAQC), at: at},
		{name: "valid TSA (critical EKU understood by crypto/x509)", path: fixturePath(p.TSA), at: at},
		{name: "trusted leaf", path: certpath.Path{Certificates: []*x509.Certificate{p.SignerRSA.Certificate}}, at: at},
		{name: "expired leaf", path: fixturePath(p.Expired), at: at, check: certpath.CheckExpired},
		{name: "not yet valid leaf", path: fixturePath(p.NotYetValid), at: at, check: certpath.CheckNotYetValid},
		{name: "expired leaf valid at a past time", path: fixturePath(p.Expired), at: time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC)},
		{name: "boundary notAfter is inclusive", path: fixturePath(p.Expired), at: p.Expired.Certificate.NotAfter},
		{name: "all valid in 2029", path: fixturePath(p.SignerRSA), at: time.Date(2029, 6, 1, 0, 0, 0, 0, time.UTC)},
		{name: "anchor expired", path: shortPath, at: after, check: certpath.CheckExpired, index: 1},
		{name: "anchor expired, anchor validity skipped", path: shortPath, at: after, opts: certpath.CheckOptions{SkipAnchorValidity: true}},
		{name: "intermediate and anchor out of bounds after 2040", path: certpath.Path{Certificates: []*x509.Certificate{p.Intermediate.Certificate, p.Root.Certificate}},
			at: time.Date(2041, 1, 1, 0, 0, 0, 0, time.UTC), check: certpath.CheckExpired, index: 0},
		{name: "trusted leaf's validity is checked by default", path: certpath.Path{Certificates: []*x509.Certificate{p.Root.Certificate}},
			at: time.Date(2046, 1, 1, 0, 0, 0, 0, time.UTC), check: certpath.CheckExpired},
		{name: "trusted leaf's validity is skipped with the anchor's (DSS)", path: certpath.Path{Certificates: []*x509.Certificate{p.Root.Certificate}},
			at: time.Date(2046, 1, 1, 0, 0, 0, 0, time.UTC), opts: certpath.CheckOptions{SkipAnchorValidity: true}},
		{name: "CA without keyCertSign", path: certpath.Path{Certificates: []*x509.Certificate{noSignLeaf.cert, noSign.cert}}, at: at,
			check: certpath.CheckKeyCertSign, index: 1},
		{name: "path length exceeded", path: certpath.Path{Certificates: []*x509.Certificate{plLeaf.cert, plInter.cert, pl0.cert}}, at: at,
			check: certpath.CheckPathLength, index: 2},
		{name: "path length 0 with no intermediate", path: certpath.Path{Certificates: []*x509.Certificate{plDirect.cert, pl0.cert}}, at: at},
		{name: "issuer not a CA", path: certpath.Path{Certificates: []*x509.Certificate{underNotCA.cert, notCA.cert}}, at: at,
			check: certpath.CheckNotCA, index: 1},
		{name: "unknown critical extension", path: critPath, at: at, check: certpath.CheckCriticalExtension},
		{name: "critical extension understood by the caller", path: critPath, at: at,
			opts: certpath.CheckOptions{UnderstoodExtensions: []asn1.ObjectIdentifier{critOID}}},
		{name: "names do not chain", path: certpath.Path{Certificates: []*x509.Certificate{p.SignerRSA.Certificate, p.Root.Certificate}}, at: at,
			check: certpath.CheckNameChaining},
		{name: "structural failure wins over validity", path: certpath.Path{Certificates: []*x509.Certificate{p.Expired.Certificate, p.Root.Certificate}}, at: at,
			check: certpath.CheckNameChaining},
		{name: "empty path", at: at, check: certpath.CheckEmptyPath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			err := certpath.Check(tt.path, tt.at, tt.opts)
			if tt.check == 0 {
				is.NoErr(err)
				return
			}
			var pe *certpath.PathError
			is.True(errors.As(err, &pe))
			is.Equal(pe.Check, tt.check)
			is.Equal(pe.Reason, tt.check.Reason())
			is.Equal(pe.SubIndication(), checkSubIndications[tt.check].sub)
			is.Equal(pe.Index, tt.index)
			if len(tt.path.Certificates) > 0 {
				is.Equal(pe.Cert, tt.path.Certificates[tt.index])
			}
			t.Log(err)
		})
	}
}

// checkSubIndications is the table of decision 0016: the sub-indication
// of each failed check, as EU DSS pairs it (the constraint of its
// validation policy named in dss).
var checkSubIndications = map[certpath.CheckKind]struct {
	sub verdict.SubIndication
	dss string
}{
	certpath.CheckExpired:           {"EXPIRED", "NotExpired (FAILED/EXPIRED, before POE and revocation)"},
	certpath.CheckNotYetValid:       {"NOT_YET_VALID", "best-signature-time before notBefore"},
	certpath.CheckNotCA:             {"CERTIFICATE_CHAIN_GENERAL_FAILURE", "CACertificate CA"},
	certpath.CheckPathLength:        {"CERTIFICATE_CHAIN_GENERAL_FAILURE", "CACertificate MaxPathLength"},
	certpath.CheckKeyCertSign:       {"CERTIFICATE_CHAIN_GENERAL_FAILURE", "CACertificate KeyUsage keyCertSign"},
	certpath.CheckCriticalExtension: {"CERTIFICATE_CHAIN_GENERAL_FAILURE", "SupportedCriticalExtensions"},
	certpath.CheckNameChaining:      {"CERTIFICATE_CHAIN_GENERAL_FAILURE", "Signature (prospective chain)"},
	certpath.CheckEmptyPath:         {"CERTIFICATE_CHAIN_GENERAL_FAILURE", "-"},
}

// TestCheckKindSubIndications pins the sub-indication of every check
// kind: an end-entity certificate issued by a certificate without cA, a
// path length exceeded or an issuing key usage without keyCertSign is
// INDETERMINATE/CERTIFICATE_CHAIN_GENERAL_FAILURE in DSS, not
// CHAIN_CONSTRAINTS_FAILURE (issue 22).
func TestCheckKindSubIndications(t *testing.T) {
	t.Parallel()
	var kinds []certpath.CheckKind
	for k := certpath.CheckExpired; k <= certpath.CheckEmptyPath; k++ {
		kinds = append(kinds, k)
	}
	is.New(t).Equal(len(kinds), len(checkSubIndications)) // every kind in the table
	for _, k := range kinds {
		want := checkSubIndications[k]
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			is.Equal(k.Reason().SubIndication(), want.sub) // DSS: want.dss
			pe := &certpath.PathError{Reason: k.Reason(), Check: k}
			is.Equal(pe.SubIndication(), want.sub)
			is.True(k.Reason() != certpath.ReasonChainConstraints)
		})
	}
}

// TestReasonSubIndications pins the Reason -> sub-indication table.
func TestReasonSubIndications(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	is.Equal(map[certpath.Reason]verdict.SubIndication{
		certpath.ReasonNoChain:          certpath.ReasonNoChain.SubIndication(),
		certpath.ReasonExpired:          certpath.ReasonExpired.SubIndication(),
		certpath.ReasonNotYetValid:      certpath.ReasonNotYetValid.SubIndication(),
		certpath.ReasonChainConstraints: certpath.ReasonChainConstraints.SubIndication(),
		certpath.ReasonGeneralFailure:   certpath.ReasonGeneralFailure.SubIndication(),
	}, map[certpath.Reason]verdict.SubIndication{
		certpath.ReasonNoChain:          "NO_CERTIFICATE_CHAIN_FOUND",
		certpath.ReasonExpired:          "EXPIRED",
		certpath.ReasonNotYetValid:      "NOT_YET_VALID",
		certpath.ReasonChainConstraints: "CHAIN_CONSTRAINTS_FAILURE",
		certpath.ReasonGeneralFailure:   "CERTIFICATE_CHAIN_GENERAL_FAILURE",
	})
	is.Equal(certpath.Reason(0).SubIndication(), verdict.SubIndication(""))
	for k := certpath.CheckExpired; k <= certpath.CheckEmptyPath; k++ {
		is.True(k.Reason() != 0)
		is.True(k.String() != "")
	}
}
