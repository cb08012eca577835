package etsi

import (
	"crypto/x509"
	"fmt"
	"slices"
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
		v.warn(CodeTooManyTimestamps, "%d time-stamps; only the first %d are judged", len(tss), MaxTimestamps)
		tss = tss[:MaxTimestamps]
	}
	order := make([]int, len(tss))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return tss[b].GenTime.Compare(tss[a].GenTime) })
	valid := make([]bool, len(tss))
	warnings := make([]*verdict.Message, len(tss))
	for _, i := range order {
		control := v.vt
		for j, ts := range tss {
			if valid[j] && ts.Type == ades.ArchiveTimestamp && ts.GenTime.After(tss[i].GenTime) && ts.GenTime.Before(control) {
				control = ts.GenTime
			}
		}
		var path *certpath.Path
		valid[i], path, warnings[i] = v.timestamp(i, tss[i], control)
		if valid[i] {
			v.r.Timestamps = append(v.r.Timestamps, TimestampResult{Type: tss[i].Type, GenTime: tss[i].GenTime, POE: control, Path: path})
		}
	}
	slices.SortStableFunc(v.r.Timestamps, func(a, b TimestampResult) int { return a.GenTime.Compare(b.GenTime) })
	best := v.vt
	for i, ts := range tss {
		if warnings[i] != nil {
			v.r.Warnings = append(v.r.Warnings, *warnings[i])
		}
		if valid[i] && (ts.Type == ades.SignatureTimestamp || ts.Type == ades.ArchiveTimestamp) && ts.GenTime.Before(best) {
			best = ts.GenTime
		}
	}
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

// timestamp reports whether time-stamp i is valid at the control time,
// or returns the warning saying why not.
func (v *validation) timestamp(i int, ts ades.Timestamp, control time.Time) (bool, *certpath.Path, *verdict.Message) {
	name := fmt.Sprintf("%s %d (%s)", typeName(ts.Type), i+1, stamp(ts.GenTime))
	fail := func(code, format string, args ...any) (bool, *certpath.Path, *verdict.Message) {
		return false, nil, &verdict.Message{Code: code, Message: name + ": " + fmt.Sprintf(format, args...)}
	}
	invalid := CodeTimestampInvalid
	if ts.Type == ades.ArchiveTimestamp {
		invalid = CodeArchiveTimestampInvalid
	}
	switch {
	case !ts.Imprint.Done || !ts.Imprint.Valid:
		return fail(invalid, "the message imprint does not match the time-stamped data (%s); it is ignored", orUnknown(ts.Imprint.Reason))
	case !ts.Value.Done || !ts.Value.Valid:
		return fail(invalid, "the token's signature does not verify (%s); it is ignored", orUnknown(ts.Value.Reason))
	case ts.GenTime.After(v.vt):
		return fail(CodeTimestampAfterValidationTime, "generated after the validation time; it gives no proof of existence")
	case ts.TSACertificate == nil:
		return fail(CodeTimestampNotTrusted, "the TSA certificate was not found; it gives no proof of existence")
	case !slices.Contains(ts.TSACertificate.ExtKeyUsage, x509.ExtKeyUsageTimeStamping):
		return fail(CodeTimestampTSACertificateBad, "the TSA certificate lacks the extended key usage id-kp-timeStamping (RFC 3161, section 2.3); it gives no proof of existence")
	}
	paths, err := certpath.Build(ts.TSACertificate, options(v.in, ts.Certificates, v.sig.Certificates))
	if err != nil {
		return fail(CodeTimestampNotTrusted, "the TSA is not trusted (%s); it gives no proof of existence", err.Error())
	}
	var last string
	lastCode := CodeTimestampTSACertificateBad
	for _, p := range paths {
		if err := certpath.Check(p, control, certpath.CheckOptions{SkipAnchorValidity: true}); err != nil {
			last, lastCode = err.Error(), CodeTimestampTSACertificateBad
			continue
		}
		good := true
		for j, l := range p.Links() {
			st := v.revocationOf(j, l)
			switch {
			case st.noCheck:
			case st.revoked && !st.revokedAt.After(control):
				last, lastCode = fmt.Sprintf("TSA path certificate %s revoked at %s", subject(l.Cert), stamp(st.revokedAt)), CodeTimestampTSARevoked
				good = false
			case !st.notRevokedAt(control):
				last, lastCode = fmt.Sprintf("no usable revocation data for TSA path certificate %s", subject(l.Cert)), CodeTimestampRevocationUnknown
				good = false
			}
			if !good {
				break
			}
		}
		if good {
			return true, &p, nil
		}
	}
	return fail(lastCode, "%s; it gives no proof of existence", last)
}

// level checks that the evidence supports the level the reader found in
// the structure: T needs an intact signature time-stamp, LT also embedded
// revocation data for the signing certificate, LTA also an intact archive
// time-stamp. When it does not, EvidenceLevel is lowered and a warning
// says so; signatureFormat stays the reader's, as DSS reports it. Whether
// embedded data covers the signing certificate is known only when the
// application looked its facts up, that is when it reaches an anchor
// (Needs); for a signer that reaches none, LT is taken as found.
func (v *validation) level() {
	sig := v.sig
	if sig.Level < ades.LevelB {
		return
	}
	intact := func(t ades.TimestampType) bool {
		for _, ts := range sig.Timestamps[:min(len(sig.Timestamps), MaxTimestamps)] {
			if ts.Type == t && ts.Imprint.Done && ts.Imprint.Valid && ts.Value.Done && ts.Value.Valid {
				return true
			}
		}
		return false
	}
	embedded := true
	if sig.SigningCertificate != nil {
		if facts, looked := v.in.Revocation[Key(sig.SigningCertificate)]; looked {
			embedded = slices.ContainsFunc(facts, func(f revocation.Fact) bool { return f.Embedded })
		}
	}
	l := ades.LevelB
	if intact(ades.SignatureTimestamp) {
		l = ades.LevelT
		if embedded {
			l = ades.LevelLT
			if intact(ades.ArchiveTimestamp) {
				l = ades.LevelLTA
			}
		}
	}
	if l < sig.Level {
		v.r.EvidenceLevel = l
		v.warn(CodeLevelNotSupported, "the signature has the structure of %s, but its evidence supports only %s",
			ades.SignatureFormat(sig.Format, sig.Level), ades.SignatureFormat(sig.Format, l))
	}
}
