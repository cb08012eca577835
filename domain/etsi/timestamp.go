package etsi

import (
	"crypto/x509"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
)

// timestamps validates the signature's time-stamps (5.4, simplified) and
// returns the best-signature-time (5.5.4, 5.6.2.2): the earliest
// generation time of a valid signature or archive time-stamp; the
// validation time when there is none.
//
// A time-stamp is valid when its imprint is intact, its token signature
// verifies, it was generated at or before the validation time and its TSA
// certificate has a path to a trust anchor that is valid at the control
// time, with revocation facts showing that no certificate of the path was
// revoked at the control time. The control time is the validation time,
// or the generation time of the earliest later valid archive time-stamp
// when there is one (past certificate validation, 5.6.2.4, simplified):
// time-stamps are judged latest first so that archive time-stamps
// protect the older ones. Failing time-stamps give warnings, in document
// order, and no proof of existence.
func (v *validation) timestamps() time.Time {
	tss := v.sig.Timestamps
	if len(tss) > MaxTimestamps {
		v.warn("Is the number of time-stamps within the limit?", verdict.Say(CodeTooManyTimestamps, "", fmt.Sprintf("%d time-stamps; only the first %d are judged", len(tss), MaxTimestamps),
			verdict.NumberParam("Count", len(tss)), verdict.NumberParam("Limit", MaxTimestamps)))
		tss = tss[:MaxTimestamps]
	}
	order := make([]int, len(tss))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return tss[b].GenTime.Compare(tss[a].GenTime) })
	valid := make([]bool, len(tss))
	warnings := make([]*verdict.Message, len(tss))
	tvs := make([]TimestampValidation, len(tss))
	for _, i := range order {
		control, protectedBy := v.vt, -1
		for j, ts := range tss {
			if valid[j] && ts.Type == ades.ArchiveTimestamp && ts.GenTime.After(tss[i].GenTime) && ts.GenTime.Before(control) {
				control, protectedBy = ts.GenTime, j
			}
		}
		tv := &tvs[i]
		*tv = TimestampValidation{Index: i, Type: tss[i].Type, GenTime: tss[i].GenTime, Control: control, ProtectedBy: protectedBy}
		var path *certpath.Path
		var facts []revocation.Fact
		valid[i], path, warnings[i], facts = v.timestamp(i, tss[i], control, &tv.Stage)
		if valid[i] {
			tv.Valid, tv.Path = true, path
			v.r.Timestamps = append(v.r.Timestamps, TimestampResult{Type: tss[i].Type, GenTime: tss[i].GenTime, POE: control, Path: path})
			v.tsaFacts = append(v.tsaFacts, facts...)
		}
	}
	slices.SortStableFunc(v.r.Timestamps, func(a, b TimestampResult) int { return a.GenTime.Compare(b.GenTime) })
	best, bestAt := v.vt, -1
	for i, ts := range tss {
		if warnings[i] != nil {
			v.r.Warnings = append(v.r.Warnings, *warnings[i])
		}
		if valid[i] && (ts.Type == ades.SignatureTimestamp || ts.Type == ades.ArchiveTimestamp) && ts.GenTime.Before(best) {
			best, bestAt = ts.GenTime, i
		}
	}
	if bestAt >= 0 {
		tvs[bestAt].Best = true
	}
	v.r.TimestampValidations = tvs
	return best
}

func typeName(t ades.TimestampType) string {
	switch t {
	case ades.ContentTimestamp:
		return "content time-stamp"
	case ades.SignatureTimestamp:
		return "signature time-stamp"
	case ades.ValidationDataTimestamp:
		return "validation-data time-stamp"
	case ades.ArchiveTimestamp:
		return "archive time-stamp"
	}
	return "time-stamp"
}

// kindName names t for a message's parameter Kind, the catalogue's key
// of typeName's words.
func kindName(t ades.TimestampType) string {
	switch t {
	case ades.ContentTimestamp:
		return "content"
	case ades.SignatureTimestamp:
		return "signature"
	case ades.ValidationDataTimestamp:
		return "validation-data"
	case ades.ArchiveTimestamp:
		return "archive"
	}
	return ""
}

// Checks of a time-stamp's validation.
const (
	tsImprint = "Does the message imprint match the time-stamped data?"
	tsValue   = "Does the token's signature verify?"
	tsCrypto  = "Are the time-stamp's algorithms acceptable at the control time?"
	tsGenTime = "Was the time-stamp generated at or before the validation time?"
	tsTSA     = "Is the TSA certificate found?"
	tsEKU     = "Does the TSA certificate have the extended key usage id-kp-timeStamping?"
	tsChain   = "Is there a certificate chain from the TSA certificate to a trust anchor?"
	tsValid   = "Is the TSA's certificate chain valid at the control time?"
	tsRevoked = "Do the revocation data show the TSA chain's certificate not revoked at the control time?"
)

// timestamp reports whether time-stamp i is valid at the control time,
// for a signature's time-stamps (timestamps) and a time-stamp entry
// (ValidateTimestamp) alike,
// or returns the warning saying why not; it records its checks and its
// conclusion in st and returns the facts of the path that made it valid.
//
// The conclusion of an invalid time-stamp carries the sub-indication of
// EN 319 102-1 that names the reason, where the process knows one (0025):
// a broken imprint or token signature FAILED with HASH_FAILURE or
// SIG_CRYPTO_FAILURE, checks that could not be made INDETERMINATE as CV
// concludes them, no TSA certificate NO_SIGNING_CERTIFICATE_FOUND, no
// chain NO_CERTIFICATE_CHAIN_FOUND, the chain's own failure, a revoked
// TSA REVOKED_NO_POE (REVOKED_CA_NO_POE for its CA), no usable
// revocation data TRY_LATER; a time-stamp generated after the validation
// time has none.
func (v *validation) timestamp(i int, ts ades.Timestamp, control time.Time, st *Stage) (bool, *certpath.Path, *verdict.Message, []revocation.Fact) {
	name := fmt.Sprintf("%s %d (%s)", typeName(ts.Type), i+1, stamp(ts.GenTime))
	if v.entry != "" {
		name = fmt.Sprintf("time-stamp %s (%s)", v.entry, stamp(ts.GenTime))
	}
	// Every message about the time-stamp starts with its name, which the
	// catalogue writes from these parameters.
	named := []verdict.Param{verdict.TextParam("Kind", kindName(ts.Type)), verdict.NumberParam("N", i+1),
		verdict.TextParam("Entry", v.entry), verdict.TimeParam("GenTime", ts.GenTime)}
	add := func(check string, s Status, code, format string, args ...any) {
		st.Checks = append(st.Checks, Check{Name: check, Status: s, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	// invalidate concludes with the error of code in the sentence
	// variant, whose English after the name is text; fail records the
	// failed check and concludes.
	invalidate := func(indication verdict.Indication, sub verdict.SubIndication, code, variant, text string, params ...verdict.Param) (bool, *certpath.Path, *verdict.Message, []revocation.Fact) {
		m := verdict.Say(code, variant, name+": "+text, append(slices.Clone(named), params...)...)
		st.Conclusion = Conclusion{Indication: indication, SubIndication: sub, Errors: []verdict.Message{m}}
		return false, nil, &m, nil
	}
	fail := func(check string, indication verdict.Indication, sub verdict.SubIndication, code, variant, text string, params ...verdict.Param) (bool, *certpath.Path, *verdict.Message, []revocation.Fact) {
		ok, p, m, facts := invalidate(indication, sub, code, variant, text, params...)
		st.Checks = append(st.Checks, Check{Name: check, Status: NotOK, Code: code, Message: m.Message})
		return ok, p, m, facts
	}
	invalid := CodeTimestampInvalid
	if ts.Type == ades.ArchiveTimestamp {
		invalid = CodeArchiveTimestampInvalid
	}
	switch {
	case !ts.Imprint.Done || !ts.Imprint.Valid:
		ind, sub := unchecked(ts.Imprint, verdict.SubHashFailure)
		return fail(tsImprint, ind, sub, invalid, "imprint", fmt.Sprintf("the message imprint does not match the time-stamped data (%s); it is ignored", orUnknown(ts.Imprint.Reason)),
			verdict.TextParam("Detail", orUnknown(ts.Imprint.Reason)))
	case !ts.Value.Done || !ts.Value.Valid:
		add(tsImprint, OK, "", "the %s imprint matches", orUnknown(ts.Imprint.Algorithm))
		ind, sub := unchecked(ts.Value, verdict.SubSigCryptoFailure)
		return fail(tsValue, ind, sub, invalid, "value", fmt.Sprintf("the token's signature does not verify (%s); it is ignored", orUnknown(ts.Value.Reason)),
			verdict.TextParam("Detail", orUnknown(ts.Value.Reason)))
	}
	add(tsImprint, OK, "", "the %s imprint matches", orUnknown(ts.Imprint.Algorithm))
	add(tsValue, OK, "", "%s signature verified", orUnknown(ts.Value.Algorithm))
	// Its algorithms must be acceptable at the control time, its own
	// proof of existence (constraints.go).
	uses := v.timestampUses(ts)
	if sub, msg := acceptableAt(uses, control); sub != "" {
		return fail(tsCrypto, verdict.Indeterminate, sub, invalid, "crypto-"+strings.TrimPrefix(msg.ID, msg.Code+"."), msg.Message+"; it gives no proof of existence", msg.Params...)
	}
	add(tsCrypto, OK, "", "%s", describeUses(uses))
	switch {
	case ts.GenTime.After(v.vt):
		return fail(tsGenTime, verdict.Indeterminate, "", CodeTimestampAfterValidationTime, "generated", "generated after the validation time; it gives no proof of existence")
	case ts.TSACertificate == nil:
		add(tsGenTime, OK, "", "generated at %s", stamp(ts.GenTime))
		return fail(tsTSA, verdict.Indeterminate, verdict.SubNoSigningCertificateFound, CodeTimestampNotTrusted, "no-tsa", "the TSA certificate was not found; it gives no proof of existence")
	case !slices.Contains(ts.TSACertificate.ExtKeyUsage, x509.ExtKeyUsageTimeStamping):
		add(tsGenTime, OK, "", "generated at %s", stamp(ts.GenTime))
		add(tsTSA, OK, "", "certificate %s", subject(ts.TSACertificate))
		return fail(tsEKU, verdict.Indeterminate, verdict.SubChainConstraintsFailure, CodeTimestampTSACertificateBad, "eku", "the TSA certificate lacks the extended key usage id-kp-timeStamping (RFC 3161, section 2.3); it gives no proof of existence")
	}
	add(tsGenTime, OK, "", "generated at %s", stamp(ts.GenTime))
	add(tsTSA, OK, "", "certificate %s", subject(ts.TSACertificate))
	add(tsEKU, OK, "", "id-kp-timeStamping present")
	paths, err := v.plan.timestamps[i].paths, v.plan.timestamps[i].err
	if err != nil {
		return fail(tsChain, verdict.Indeterminate, verdict.SubNoCertificateChainFound, CodeTimestampNotTrusted, "chain", fmt.Sprintf("the TSA is not trusted (%s); it gives no proof of existence", err.Error()),
			verdict.TextParam("Detail", err.Error()))
	}
	add(tsChain, OK, "", "%d candidate path(s)", len(paths))
	// Each path tried is recorded; the last one's failure concludes, in
	// the sentence variant lastVariant with the parameters lastParams.
	var last string
	var lastSub verdict.SubIndication
	lastCode, lastVariant := CodeTimestampTSACertificateBad, "path"
	var lastParams []verdict.Param
	for _, p := range paths {
		if err := certpath.Check(p, control, checkOptions()); err != nil {
			last, lastCode, lastSub = err.Error(), CodeTimestampTSACertificateBad, verdict.SubCertificateChainGeneralFailure
			lastVariant, lastParams = "path", []verdict.Param{verdict.TextParam("Detail", last)}
			var pe *certpath.PathError
			if errors.As(err, &pe) {
				lastSub = pe.SubIndication()
			}
			add(tsValid, NotOK, lastCode, "the path ending at %s: %s", anchorName(p.Anchor), last)
			continue
		}
		add(tsValid, OK, "", "the path ending at %s is valid at %s", anchorName(p.Anchor), stamp(control))
		// The TSA's service must be approved when it produced the token
		// (decision 0018).
		if msg, params, refused := anchorRefused(p.Anchor, ts.GenTime); refused {
			last, lastCode, lastSub = msg, CodeTimestampNotTrusted, verdict.SubNoCertificateChainFound
			lastVariant, lastParams = "anchor", params
			add(checkAnchorStatus, NotOK, lastCode, "%s", msg)
			continue
		}
		good := true
		links := p.Links()
		status := make([]linkStatus, 0, len(links))
		for j, l := range links {
			ls := v.revocationOf(j, l)
			status = append(status, ls)
			switch {
			case ls.noCheck:
				add(tsRevoked, Information, "", "certificate %s carries id-pkix-ocsp-nocheck: its revocation is not checked", subject(l.Cert))
			case ls.revoked && !ls.revokedAt.After(control):
				last, lastCode = fmt.Sprintf("TSA path certificate %s revoked at %s", subject(l.Cert), stamp(ls.revokedAt)), CodeTimestampTSARevoked
				lastVariant, lastParams = "revoked", []verdict.Param{verdict.QuotedParam("Subject", l.Cert.Subject.String()), verdict.TimeParam("Revoked", ls.revokedAt)}
				lastSub = verdict.SubRevokedNoPOE
				if j > 0 {
					lastSub = verdict.SubRevokedCANoPOE
				}
				add(tsRevoked, NotOK, lastCode, "%s", last)
				good = false
			case !ls.notRevokedAt(control):
				last, lastCode, lastSub = fmt.Sprintf("no usable revocation data for TSA path certificate %s", subject(l.Cert)), CodeTimestampRevocationUnknown, verdict.SubTryLater
				lastVariant, lastParams = "revocation", []verdict.Param{verdict.QuotedParam("Subject", l.Cert.Subject.String())}
				add(tsRevoked, NotOK, lastCode, "%s", last)
				good = false
			default:
				add(tsRevoked, OK, "", "certificate %s: not revoked then", subject(l.Cert))
			}
			if !good {
				break
			}
		}
		if good {
			st.Conclusion = Conclusion{Indication: verdict.Passed}
			return true, &p, nil, used(status)
		}
	}
	if lastVariant == "path" && lastParams == nil {
		lastParams = []verdict.Param{verdict.TextParam("Detail", last)}
	}
	return invalidate(verdict.Indeterminate, lastSub, lastCode, lastVariant, last+"; it gives no proof of existence", lastParams...)
}

// unchecked is the conclusion of a check of a time-stamp that did not
// pass: FAILED with sub when it was made, else INDETERMINATE as CV
// concludes on a signature value it could not check (0018).
func unchecked(c ades.Check, sub verdict.SubIndication) (verdict.Indication, verdict.SubIndication) {
	switch {
	case c.Done:
		return verdict.Failed, sub
	case algorithmReason(c.Reason):
		return verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE
	}
	return verdict.Indeterminate, verdict.SubFormatFailure
}

// level checks that the evidence supports the level the reader found in
// the structure: T needs an intact signature time-stamp (or a time-mark
// whose nonce matches), LT also embedded revocation data for the
// signer's chain (chainEmbedded), LTA also an intact archive time-stamp.
// When it does not, EvidenceLevel is lowered and a warning says so;
// signatureFormat stays the reader's, as DSS reports it.
func (v *validation) level() {
	sig := v.sig
	if sig.Level < ades.LevelB {
		return
	}
	// A time-mark whose nonce matches stands for an intact signature
	// time-stamp (0031); its response is LT's revocation data.
	markIntact := sig.TimeMark != nil && sig.TimeMark.Nonce.Done && sig.TimeMark.Nonce.Valid
	intact := func(t ades.TimestampType) bool {
		for _, ts := range sig.Timestamps[:min(len(sig.Timestamps), MaxTimestamps)] {
			if ts.Type == t && ts.Imprint.Done && ts.Imprint.Valid && ts.Value.Done && ts.Value.Valid {
				return true
			}
		}
		return false
	}
	embedded := v.chainEmbedded()
	l := ades.LevelB
	if intact(ades.SignatureTimestamp) || markIntact {
		l = ades.LevelT
		if embedded {
			l = ades.LevelLT
			if intact(ades.ArchiveTimestamp) {
				l = ades.LevelLTA
			}
		}
	}
	const supported = "Does the evidence support the level the structure shows?"
	if l < sig.Level {
		v.r.EvidenceLevel = l
		v.warn(supported, verdict.Say(CodeLevelNotSupported, "", fmt.Sprintf("the signature has the structure of %s, but its evidence supports only %s",
			sig.FormatName(), ades.SignatureFormat(sig.Format, l)),
			verdict.TextParam("Structure", sig.FormatName()), verdict.TextParam("Supported", ades.SignatureFormat(sig.Format, l))))
		return
	}
	v.check(supported, OK, "", "the evidence supports %s", sig.FormatName())
}
