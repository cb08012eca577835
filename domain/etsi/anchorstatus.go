package etsi

import (
	"fmt"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/verdict"
)

// checkAnchorStatus is the name of the trust-service status check.
const checkAnchorStatus = "Was the anchor's trust service approved when the signature existed?"

// anchorStatus applies the trust-service status at the best-signature-time
// (decision 0018): a path whose anchor's service was, at the
// best-signature-time, in a status other than an approved one (withdrawn,
// deprecated…) ends at no trust anchor for this signature, and the
// signature is INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND whatever the
// other checks concluded, short of TOTAL_FAILED. A service withdrawn
// after the best-signature-time leaves the path as it is: the signature
// existed while the CA was approved. Without a proof of existence the
// best-signature-time is the validation time.
func (v *validation) anchorStatus(p certpath.Path, o outcome, st *Stage) outcome {
	if o.indication == verdict.TotalFailed {
		return o
	}
	msg, params, refused := anchorRefused(p.Anchor, v.r.BestSignatureTime)
	if !refused {
		return o
	}
	st.Checks = append(st.Checks, Check{Name: checkAnchorStatus, Status: NotOK, Code: string(verdict.SubNoCertificateChainFound), Message: msg})
	return outcome{indication: verdict.Indeterminate, sub: verdict.SubNoCertificateChainFound, message: verdict.Say(string(verdict.SubNoCertificateChainFound), "anchor-status", msg, params...)}
}

// anchorRefused says why a, a listed anchor, is no trust anchor for an
// object that existed at t, when it is not: in English, and the
// parameters of that sentence.
func anchorRefused(a certpath.Anchor, t time.Time) (string, []verdict.Param, bool) {
	period, refused := a.NotApprovedAt(t)
	if !refused {
		return "", nil, false
	}
	params := []verdict.Param{verdict.QuotedParam("Subject", a.Certificate.Subject.String()), verdict.TextParam("Country", a.Territory),
		verdict.TextParam("Framework", a.Framework.String()), verdict.TimeParam("Time", t), verdict.QuotedParam("Service", a.Service.Name),
		verdict.TextParam("Status", statusName(period.StatusURI)), verdict.TimeParam("Start", period.Start)}
	return fmt.Sprintf("%s is no trust anchor at %s: its trust service %q was %s from %s, before that time",
		anchorName(a), stamp(t), a.Service.Name, statusName(period.StatusURI), stamp(period.Start)), params, true
}

// statusName is the last segment of a status URI, for messages.
func statusName(uri string) string {
	if uri == "" {
		return "in an unnamed status"
	}
	return uri[strings.LastIndexByte(uri, '/')+1:]
}
