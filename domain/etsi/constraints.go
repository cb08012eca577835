package etsi

import (
	"crypto/x509"
	"fmt"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
)

// Cryptographic constraints (EN 319 102-1, 5.2.8 signature acceptance
// validation, 5.2.6 X.509 certificate validation, 5.6.2.5 past signature
// validation, docs/decisions/0027): every digest and signature algorithm
// the signature, its certificate path and its time-stamps use is judged
// against the policy's catalogue. A use acceptable at the validation time
// passes. A use acceptable only before a date passes when a proof of
// existence of the signed object precedes that date, and is otherwise
// INDETERMINATE/CRYPTO_CONSTRAINTS_FAILURE_NO_POE. A use never acceptable
// (an algorithm the catalogue does not know, a key below the smallest
// size, a pairing the algorithm's standard forbids) is
// INDETERMINATE/CRYPTO_CONSTRAINTS_FAILURE, which no proof of existence
// cures.

// judgedUse is a use with its limit and what it belongs to, for messages.
type judgedUse struct {
	use   algorithm.Use
	limit algorithm.Limit
	what  string // in English
	// kind and name are what for the catalogue: object (a signed data
	// object, named), value (the signature value), certificate (a path
	// certificate's signature, its subject), imprint or token (a
	// time-stamp's).
	kind, name string
}

// strictest is the judged use with the earliest limit (never before any
// date, any date before none); ok is false when there is none.
func strictest(uses []judgedUse) (judgedUse, bool) {
	stricter := func(u, than judgedUse) bool {
		switch {
		case than.limit.Never:
			return false
		case u.limit.Never:
			return true
		case u.limit.Until.IsZero():
			return false
		}
		return than.limit.Until.IsZero() || u.limit.Until.Before(than.limit.Until)
	}
	var out judgedUse
	for i, u := range uses {
		if i == 0 || stricter(u, out) {
			out = u
		}
	}
	return out, len(uses) > 0
}

// catalogue is the policy's catalogue, the default one when it names none.
func (p Policy) catalogue() algorithm.Catalogue {
	if p.Algorithms != nil {
		return *p.Algorithms
	}
	return algorithm.Default()
}

// signatureUses are the uses of the signature itself: each data object's
// digest, and the signature value's algorithm with the signer's key (for
// EdDSA, with the digest of the signed data, which RFC 8419 fixes).
func (v *validation) signatureUses(signer *x509.Certificate) []judgedUse {
	var out []judgedUse
	var digest algorithm.Digest
	for _, d := range v.sig.DataObjects {
		if d.DigestAlgorithm == "" {
			continue
		}
		digest = algorithm.NormalizeDigest(d.DigestAlgorithm)
		u := algorithm.Use{Digest: digest}
		out = append(out, judgedUse{use: u, limit: v.cat.Judge(u), what: fmt.Sprintf("the digest of signed data object %q", d.Name), kind: "object", name: d.Name})
	}
	if u, ok := valueUse(v.sig.Value, signer, digest); ok {
		out = append(out, judgedUse{use: u, limit: v.cat.Judge(u), what: "the signature value", kind: "value"})
	}
	return out
}

// valueUse is the use of a signature value check made with the key of
// signer; digest is the signed data's, for EdDSA. ok is false when the
// reader named no algorithm this package knows, or when signer's key is
// not of the algorithm's family (nothing to size).
func valueUse(c ades.Check, signer *x509.Certificate, digest algorithm.Digest) (algorithm.Use, bool) {
	key, d, ok := algorithm.ParseSignature(c.Algorithm)
	if !ok {
		return algorithm.Use{}, false
	}
	u := algorithm.Use{Key: key, Digest: d}
	if (key == algorithm.Ed25519 || key == algorithm.Ed448) && d == "" {
		u.Digest = digest
	}
	if signer != nil {
		if k, bits, ok := algorithm.KeyOf(signer.PublicKey); ok && k == key.PublicKey() {
			u.Bits = bits
		}
	}
	if u.Bits == 0 {
		switch key {
		case algorithm.Ed25519:
			u.Bits = 256
		case algorithm.Ed448:
			u.Bits = 448
		default:
			// No key of the algorithm's family to size: the value did
			// not verify with it either, and CV said so.
			return algorithm.Use{}, false
		}
	}
	return u, true
}

// pathUses are the uses of the signatures of a path's certificates (the
// anchor's own is not judged: it is trusted as it is).
func (v *validation) pathUses(p certpath.Path) []judgedUse {
	var out []judgedUse
	for _, l := range p.Links() {
		u, ok := algorithm.CertificateUse(l.Cert, l.Issuer)
		if !ok {
			continue
		}
		out = append(out, judgedUse{use: u, limit: v.cat.Judge(u), what: "the signature of certificate " + subject(l.Cert), kind: "certificate", name: l.Cert.Subject.String()})
	}
	return out
}

// acceptableAt reports the strictest of uses at t: "" when all are
// acceptable then, else the sub-indication and the error, whose sentence
// is the variant "never" (not acceptable at all) or "until" (not after a
// date).
func acceptableAt(uses []judgedUse, t time.Time) (verdict.SubIndication, verdict.Message) {
	u, ok := strictest(uses)
	if !ok || u.limit.AcceptableAt(t) {
		return "", verdict.Message{}
	}
	params := []verdict.Param{verdict.TextParam("What", u.kind), verdict.QuotedParam("Name", u.name), verdict.TextParam("Algorithm", u.use.String())}
	if u.limit.Never {
		sub := verdict.SubCryptoConstraintsFailure
		return sub, verdict.Say(string(sub), "never", fmt.Sprintf("%s uses %s, which is not acceptable: %s", u.what, u.use, u.limit.Reason),
			append(params, verdict.TextParam("Detail", u.limit.Reason))...)
	}
	sub := verdict.SubCryptoConstraintsFailureNoPOE
	return sub, verdict.Say(string(sub), "until", fmt.Sprintf("%s uses %s, acceptable only before %s (%s), and no proof of existence precedes that date",
		u.what, u.use, stamp(u.limit.Until), u.limit.Source), append(params, verdict.TimeParam("Until", u.limit.Until), verdict.TextParam("Source", u.limit.Source))...)
}

// describeUses says, for an OK check, what the uses are and until when.
func describeUses(uses []judgedUse) string {
	u, ok := strictest(uses)
	switch {
	case !ok:
		return "no algorithm to judge"
	case u.limit.Until.IsZero():
		return fmt.Sprintf("every algorithm is acceptable with no end date (the strictest: %s, %s)", u.use, u.limit.Source)
	}
	return fmt.Sprintf("%s uses %s, acceptable before %s (%s)", u.what, u.use, stamp(u.limit.Until), u.limit.Source)
}

// cryptoAcceptance is the cryptographic-constraints check of SAV (5.2.8)
// at the validation time. It records the check and, when it fails, the
// block's conclusion, without deciding the result: past signature
// validation may still find a proof of existence before the date
// (cryptoWithTime).
func (v *validation) cryptoAcceptance(signer *x509.Certificate) {
	const name = "Are the signature's algorithms acceptable at the validation time?"
	uses := v.signatureUses(signer)
	sub, msg := acceptableAt(uses, v.vt)
	if sub == "" {
		v.check(name, OK, "", "%s", describeUses(uses))
		return
	}
	b := v.block()
	b.Checks = append(b.Checks, Check{Name: name, Status: NotOK, Code: string(sub), Message: msg.Message})
	b.Conclusion.Indication, b.Conclusion.SubIndication = blockIndication(verdict.Indeterminate), sub
	b.Conclusion.Errors = append(b.Conclusion.Errors, msg)
}

// cryptoWithTime judges the algorithms of the signature and of path p at
// the best-signature-time (5.6.2.5, simplified): a use acceptable only
// before a date passes when the signature existed before it, which its
// certificates did too. It runs on an outcome that passed, records its
// checks in st, and returns the outcome that stands.
func (v *validation) cryptoWithTime(p certpath.Path, o outcome, st *Stage) outcome {
	if o.indication != verdict.TotalPassed {
		return o
	}
	bst := v.r.BestSignatureTime
	var all []judgedUse
	for _, part := range []struct {
		name string
		uses []judgedUse
	}{
		{"Are the signature's algorithms acceptable at the best-signature-time?", v.signatureUses(p.Leaf())},
		{"Are the algorithms of the certificate path's signatures acceptable at the best-signature-time?", v.pathUses(p)},
	} {
		sub, msg := acceptableAt(part.uses, bst)
		if sub != "" {
			st.Checks = append(st.Checks, Check{Name: part.name, Status: NotOK, Code: string(sub), Message: msg.Message})
			return outcome{indication: verdict.Indeterminate, sub: sub, message: msg}
		}
		st.Checks = append(st.Checks, Check{Name: part.name, Status: OK, Message: describeUses(part.uses) + "; the best-signature-time is " + stamp(bst)})
		all = append(all, part.uses...)
	}
	if m, ok := v.expiresSoon(all); ok {
		st.Checks = append(st.Checks, Check{Name: "Is every algorithm acceptable beyond the policy's warning window?", Status: Warning, Code: m.Code, Message: m.Message})
		o.warnings = append(o.warnings, m)
	}
	return o
}

// expiresSoon is the warning that the strictest of uses stops being
// acceptable after the validation time but within the policy's
// ExpiryWarning of it; ok is false when there is none to give. A use
// already past its date (which a proof of existence saved) is not
// warned of: the process said how it stands.
func (v *validation) expiresSoon(uses []judgedUse) (verdict.Message, bool) {
	if v.expiryWarning <= 0 {
		return verdict.Message{}, false
	}
	u, ok := strictest(uses)
	if !ok || u.limit.Never || u.limit.Until.IsZero() || !v.vt.Before(u.limit.Until) || u.limit.Until.After(v.vt.Add(v.expiryWarning)) {
		return verdict.Message{}, false
	}
	return verdict.Say(CodeAlgorithmExpiresSoon, "", fmt.Sprintf("%s uses %s, acceptable only before %s (%s); a proof of existence before that date, such as an archive time-stamp, keeps the signature valid after it",
		u.what, u.use, stamp(u.limit.Until), u.limit.Source),
		verdict.TextParam("What", u.kind), verdict.QuotedParam("Name", u.name), verdict.TextParam("Algorithm", u.use.String()),
		verdict.TimeParam("Until", u.limit.Until), verdict.TextParam("Source", u.limit.Source)), true
}

// timestampUses are the uses of a time-stamp: its imprint's digest and
// its token's signature with the TSA's key.
func (v *validation) timestampUses(ts ades.Timestamp) []judgedUse {
	var out []judgedUse
	var digest algorithm.Digest
	if ts.Imprint.Algorithm != "" {
		digest = algorithm.NormalizeDigest(ts.Imprint.Algorithm)
		u := algorithm.Use{Digest: digest}
		out = append(out, judgedUse{use: u, limit: v.cat.Judge(u), what: "the message imprint", kind: "imprint"})
	}
	if u, ok := valueUse(ts.Value, ts.TSACertificate, digest); ok {
		out = append(out, judgedUse{use: u, limit: v.cat.Judge(u), what: "the token's signature", kind: "token"})
	}
	return out
}

// acceptableData reports whether the signature of revocation data f uses
// algorithms acceptable at the validation time; data signed otherwise is
// not relied on (a SHA-1 OCSP response says nothing today).
func (v *validation) acceptableData(f revocation.Fact) bool {
	u, ok := algorithm.SignedBy(f.SignatureAlgorithm, f.Signer)
	return !ok || v.cat.Judge(u).AcceptableAt(v.vt)
}
