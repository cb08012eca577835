package etsi

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/hex"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/revocation"
)

// Inputs are the trust anchors, candidate intermediates and revocation
// facts of one validation.
type Inputs struct {
	// Anchors are the trust anchors of the snapshot (certpath.AnchorsFrom),
	// indexed once per snapshot and shared between validations.
	Anchors *certpath.AnchorSet
	// Intermediates are candidate issuers: those embedded in the document
	// plus those fetched by AIA. The signature's and the time-stamps' own
	// certificates are added by the process.
	Intermediates []*x509.Certificate
	// CheckSignature checks a certificate's signature; passed to certpath
	// (nil: crypto/x509).
	CheckSignature func(child *x509.Certificate, parentKey crypto.PublicKey) error
	// Revocation holds the facts the application fetched for the links
	// Needs returned, keyed by Key(cert).
	Revocation map[string][]revocation.Fact
	// Plan, when set, is NewPlan of this signature and these inputs: its
	// paths are used instead of being built again. Nil: Validate builds
	// one.
	Plan *Plan
}

// Key identifies a certificate in Inputs.Revocation: lower-case hex
// SHA-256 of its raw DER. It returns "" for nil.
func Key(c *x509.Certificate) string {
	if c == nil {
		return ""
	}
	sum := sha256.Sum256(c.Raw)
	return hex.EncodeToString(sum[:])
}

// options are the certpath options for a leaf, with the evidence's own
// certificates as further intermediates.
func options(in Inputs, extra ...[]*x509.Certificate) certpath.Options {
	var inter []*x509.Certificate
	for _, c := range in.Intermediates {
		if c != nil {
			inter = append(inter, c)
		}
	}
	for _, e := range extra {
		for _, c := range e {
			if c != nil {
				inter = append(inter, c)
			}
		}
	}
	anchors := in.Anchors
	if anchors == nil {
		anchors = certpath.NewAnchorSet(nil)
	}
	return certpath.Options{Intermediates: inter, AnchorSet: anchors, CheckSignature: in.CheckSignature}
}

// oidOCSPNoCheck is id-pkix-ocsp-nocheck (RFC 6960, section 4.2.2.2.1).
var oidOCSPNoCheck = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 48, 1, 5}

// noCheck reports whether c carries id-pkix-ocsp-nocheck: its revocation
// is not checked.
func noCheck(c *x509.Certificate) bool {
	for _, e := range c.Extensions {
		if e.Id.Equal(oidOCSPNoCheck) {
			return true
		}
	}
	return false
}

// sameCert reports whether a and b are the same certificate.
func sameCert(a, b *x509.Certificate) bool {
	return a != nil && b != nil && bytes.Equal(a.Raw, b.Raw)
}

// checkOptions are the X.509 checks of every path the process checks:
// the anchor's validity is not checked (as DSS does for every trusted
// certificate), and a critical QCStatements extension is understood: RFC
// 3739 (3.2.6) lets it be critical, and the qualification step reads it.
func checkOptions() certpath.CheckOptions {
	return certpath.CheckOptions{SkipAnchorValidity: true, UnderstoodExtensions: []asn1.ObjectIdentifier{{1, 3, 6, 1, 5, 5, 7, 1, 3}}}
}
