package jades

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/domain/ades"
)

// Header parameters this reader understands: those of RFC 7515 and 7797
// and of TS 119 182-1 (5.1, 5.2). A name of crit outside understood is a
// format failure (RFC 7515 4.1.11).
var understood = map[string]bool{
	"b64": true, "sigT": true, "sigD": true, "x5t#o": true, "sigX5ts": true, "srCms": true, "srAts": true,
	"sigPl": true, "sigPId": true, "adoTst": true, "cty": true, "iat": true,
}

// registered are the header parameters RFC 7515 defines, which crit must
// not list (4.1.11).
var registered = []string{"alg", "jku", "jwk", "kid", "x5u", "x5c", "x5t", "x5t#S256", "typ", "cty", "crit"}

// certDigest is one certificate reference: x5t#S256, x5t#o or an entry of
// sigX5ts.
type certDigest struct {
	hash   func([]byte) []byte
	digest []byte
}

func (d certDigest) matches(c *x509.Certificate) bool {
	return c != nil && d.hash != nil && bytes.Equal(d.hash(c.Raw), d.digest)
}

// protectedHeader is what the protected header says.
type protectedHeader struct {
	alg      string
	x5c      []*x509.Certificate
	refs     []certDigest // x5t#S256, x5t#o, sigX5ts, in that order
	refNamed bool         // one of them is present
	kid      *issuerSerial
	sigT     time.Time
	hasSigT  bool
	b64      bool
	sigD     *value
	adoTst   *value
	commits  []string
	policyID string
	problems []ades.Problem
}

func (h *protectedHeader) problem(code string, failure bool, format string, args ...any) {
	h.problems = append(h.problems, ades.Problem{Code: code, Message: fmt.Sprintf(format, args...), FormatFailure: failure})
}

// readProtected reads the protected header hdr and checks crit against
// it and the unprotected header unprot (nil when absent).
func readProtected(hdr, unprot *value) protectedHeader {
	h := protectedHeader{b64: true}
	invalid := func(format string, args ...any) { h.problem(CodeHeaderInvalid, true, format, args...) }
	for _, m := range hdr.members {
		if unprot.get(m.name) != nil {
			invalid("header parameter %q is both protected and unprotected (RFC 7515 4)", m.name)
		}
	}
	if a := hdr.get("alg"); a == nil || a.kind != kindString {
		invalid("no alg string in the protected header")
	} else {
		h.alg = a.str
	}
	if x := hdr.get("x5c"); x != nil {
		h.readX5C(x)
	}
	if x := hdr.get("x5t#S256"); x != nil {
		h.refNamed = true
		if d, err := b64String(x, "x5t#S256"); err != nil {
			invalid("%v", err)
		} else {
			h.refs = append(h.refs, certDigest{hash: sha256Of, digest: d})
		}
	}
	if x := hdr.get("x5t#o"); x != nil {
		h.refNamed = true
		if d, err := readDigAlgVal(x, "x5t#o"); err != nil {
			invalid("%v", err)
		} else {
			h.refs = append(h.refs, d)
		}
	}
	if x := hdr.get("sigX5ts"); x != nil {
		h.refNamed = true
		if x.kind != kindArray || len(x.elems) == 0 {
			invalid("sigX5ts is not a non-empty array")
		}
		for i, e := range x.elems {
			if i >= MaxCertificates {
				break
			}
			d, err := readDigAlgVal(e, fmt.Sprintf("sigX5ts[%d]", i))
			if err != nil {
				invalid("%v", err)
				continue
			}
			h.refs = append(h.refs, d)
		}
	}
	if k := hdr.get("kid"); k != nil {
		// TS 119 182-1 5.1.4: the base64 of a DER IssuerSerial, when it
		// names the signing certificate; any other kid is the signer's
		// business and left alone.
		if k.kind == kindString {
			if der, err := decodeB64("kid", k.str); err == nil {
				if is, err := parseIssuerSerial(der); err == nil {
					h.kid = is
				}
			}
		} else {
			invalid("kid is %v, not a string", k.kind)
		}
	}
	if t := hdr.get("sigT"); t != nil {
		at, err := time.Parse(time.RFC3339, strOf(t))
		if err != nil || t.kind != kindString || !strings.HasSuffix(t.str, "Z") {
			h.problem(CodeMalformedProperty, false, "sigT %s is not a UTC date-time of RFC 3339 (TS 119 182-1 5.2.1)", t.raw)
		} else {
			h.sigT, h.hasSigT = at.UTC(), true
		}
	} else if t := hdr.get("iat"); t != nil && t.kind == kindNumber {
		// JWT's iat, which TS 119 182-1 V1.1.1 deprecates in favour of
		// sigT: still a claimed signing time.
		var n big.Int
		if _, ok := n.SetString(t.str, 10); ok && n.IsInt64() {
			h.sigT, h.hasSigT = time.Unix(n.Int64(), 0).UTC(), true
		}
	}
	if b := hdr.get("b64"); b != nil {
		if b.kind != kindBool {
			invalid("b64 is %v, not a boolean (RFC 7797 3)", b.kind)
		} else {
			h.b64 = b.boolean
		}
	}
	if c := hdr.get("cty"); c != nil && c.kind != kindString {
		invalid("cty is %v, not a string", c.kind)
	}
	h.sigD = hdr.get("sigD")
	if h.sigD != nil && h.sigD.kind != kindObject {
		invalid("sigD is %v, not an object", h.sigD.kind)
		h.sigD = nil
	}
	h.adoTst = hdr.get("adoTst")
	if s := hdr.get("srCms"); s != nil {
		h.readCommitments(s)
	}
	if p := hdr.get("sigPId"); p != nil {
		if id := p.get("id"); id != nil && id.kind == kindString {
			h.policyID = strings.TrimPrefix(id.str, "urn:oid:")
		} else {
			h.problem(CodeMalformedProperty, false, "sigPId without an id string")
		}
	}
	for _, name := range []string{"sigPl", "srAts"} {
		if v := hdr.get(name); v != nil && v.kind != kindObject {
			h.problem(CodeMalformedProperty, false, "%s is %v, not an object", name, v.kind)
		}
	}
	h.checkCrit(hdr)
	return h
}

// checkCrit checks crit (RFC 7515 4.1.11): a non-empty array of names,
// none of RFC 7515's, each understood and present in the protected
// header. b64 false must be critical (RFC 7797 6), and so sigT and sigD
// (TS 119 182-1 5.2.1, 5.2.8): a signature that does not say so is read
// as it is, with a warning.
func (h *protectedHeader) checkCrit(hdr *value) {
	c := hdr.get("crit")
	var names []string
	if c != nil {
		if c.kind != kindArray || len(c.elems) == 0 {
			h.problem(CodeHeaderInvalid, true, "crit is not a non-empty array of names")
			return
		}
		for _, e := range c.elems {
			if e.kind != kindString {
				h.problem(CodeHeaderInvalid, true, "crit lists %s, not a name", e.raw)
				continue
			}
			switch {
			case slices.Contains(registered, e.str):
				h.problem(CodeHeaderInvalid, true, "crit lists %q, a parameter of RFC 7515 itself", e.str)
			case !understood[e.str]:
				h.problem(CodeCritUnknown, true, "crit lists %q, a header parameter this validator does not understand: the signature cannot be processed (RFC 7515 4.1.11)", e.str)
			case hdr.get(e.str) == nil:
				h.problem(CodeHeaderInvalid, true, "crit lists %q, which the protected header does not hold", e.str)
			}
			names = append(names, e.str)
		}
	}
	if !h.b64 && !slices.Contains(names, "b64") {
		h.problem(CodeHeaderInvalid, true, "b64 false is not listed in crit (RFC 7797 6)")
	}
	for _, n := range []string{"sigT", "sigD"} {
		if hdr.get(n) != nil && !slices.Contains(names, n) {
			h.problem(CodeMalformedProperty, false, "%s is not listed in crit (TS 119 182-1 requires it)", n)
		}
	}
}

func (h *protectedHeader) readX5C(x *value) {
	if x.kind != kindArray || len(x.elems) == 0 {
		h.problem(CodeHeaderInvalid, true, "x5c is %v, not a non-empty array of base64 certificates (RFC 7515 4.1.6)", x.kind)
		return
	}
	for i, e := range x.elems {
		if i >= MaxCertificates {
			h.problem(CodeLimitExceeded, false, "x5c: certificates beyond %d left out", MaxCertificates)
			break
		}
		if e.kind != kindString {
			h.problem(CodeHeaderInvalid, true, "x5c[%d] is %v, not a base64 certificate", i, e.kind)
			return
		}
		der, err := decodeB64(fmt.Sprintf("x5c[%d]", i), e.str)
		if err != nil {
			h.problem(CodeHeaderInvalid, true, "%v", err)
			return
		}
		c, err := cert.Parse(der)
		if err != nil {
			h.problem(CodeBadCertificate, false, "x5c[%d] does not parse: %v", i, err)
			continue
		}
		h.x5c = append(h.x5c, c)
	}
}

// readCommitments reads srCms: an array of {"commId": {"id": URI} or URI}.
func (h *protectedHeader) readCommitments(s *value) {
	if s.kind != kindArray {
		h.problem(CodeMalformedProperty, false, "srCms is %v, not an array", s.kind)
		return
	}
	for _, e := range s.elems {
		id := e.get("commId")
		if id != nil && id.kind == kindObject {
			id = id.get("id")
		}
		if id == nil || id.kind != kindString {
			h.problem(CodeMalformedProperty, false, "srCms entry without a commId")
			continue
		}
		h.commits = append(h.commits, id.str)
	}
}

func sha256Of(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

// strOf is v's string, "" for another kind.
func strOf(v *value) string {
	if v == nil || v.kind != kindString {
		return ""
	}
	return v.str
}

// b64String decodes v, a base64url string.
func b64String(v *value, what string) ([]byte, error) {
	if v.kind != kindString {
		return nil, fmt.Errorf("%s is %v, not a base64url string", what, v.kind)
	}
	return decodeB64URL(what, v.str)
}

// readDigAlgVal reads {"digAlg": name, "digVal": base64url}.
func readDigAlgVal(v *value, what string) (certDigest, error) {
	alg, val := v.get("digAlg"), v.get("digVal")
	if alg == nil || val == nil {
		return certDigest{}, fmt.Errorf("%s is not an object of digAlg and digVal", what)
	}
	h, ok := digestAlgorithm(strOf(alg))
	d, err := b64String(val, what+".digVal")
	if err != nil {
		return certDigest{}, err
	}
	if !ok {
		// An unknown digest matches nothing; it is not malformed.
		return certDigest{digest: d}, nil
	}
	return certDigest{hash: func(b []byte) []byte { w := h.New(); w.Write(b); return w.Sum(nil) }, digest: d}, nil
}

// issuerSerial is a kid's IssuerSerial: the issuer's DER Name and the
// serial number.
type issuerSerial struct {
	issuer []byte
	serial *big.Int
}

func (is *issuerSerial) matches(c *x509.Certificate) bool {
	return is != nil && c != nil && c.SerialNumber != nil && is.serial.Cmp(c.SerialNumber) == 0 && cert.EqualNames(is.issuer, c.RawIssuer)
}

// parseIssuerSerial reads the DER of an IssuerSerial (RFC 5035:
// SEQUENCE { issuer GeneralNames, serialNumber INTEGER }), keeping its
// first directoryName.
func parseIssuerSerial(der []byte) (*issuerSerial, error) {
	in := cryptobyte.String(der)
	var seq, names cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() || !seq.ReadASN1(&names, cbasn1.SEQUENCE) {
		return nil, errors.New("not an IssuerSerial")
	}
	serial := new(big.Int)
	if !seq.ReadASN1Integer(serial) {
		return nil, errors.New("IssuerSerial: no serial number")
	}
	for !names.Empty() {
		var name cryptobyte.String
		var tag cbasn1.Tag
		if !names.ReadAnyASN1(&name, &tag) {
			return nil, errors.New("IssuerSerial: malformed GeneralName")
		}
		if tag == cbasn1.Tag(4).Constructed().ContextSpecific() {
			var rdns cryptobyte.String
			if !name.ReadASN1Element(&rdns, cbasn1.SEQUENCE) {
				return nil, errors.New("IssuerSerial: malformed directoryName")
			}
			return &issuerSerial{issuer: rdns, serial: serial}, nil
		}
	}
	return nil, errors.New("IssuerSerial: no directoryName")
}
