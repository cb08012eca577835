// Package qualification derives the qualification of a validated
// signature: eIDAS (ETSI TS 119 615, as EU DSS applies it) for a signer
// on an EU trusted list, Swiss ZertES for one on the Swiss list, and the
// Swiss handwritten equivalence (CO Art. 14 para 2bis). It is pure: the
// trusted lists' services arrive as Listings, the certificate as parsed.
package qualification

import (
	"crypto/x509"
	"fmt"
	"time"

	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// Input is what qualification reads of one validated signature.
type Input struct {
	// Indication is the EN 319 102-1 main indication.
	Indication verdict.Indication
	Signer     *x509.Certificate
	// Framework is the framework of the anchor the signer's path ends at,
	// Swiss precedence applied (validation-service.md §2 rules 1 to 3);
	// trust.Unknown for a private anchor or none.
	Framework trust.Framework
	// Listings are the services, on every list, whose identity holds the
	// path's anchor certificate.
	Listings          []Listing
	BestSignatureTime time.Time
	// Timestamps are the signature's time-stamps that gave a proof of
	// existence.
	Timestamps []Timestamp
}

// A Timestamp is a valid time-stamp over the signature.
type Timestamp struct {
	Generated time.Time
	// LowestPOE is the earliest proof of existence of the time-stamp
	// itself: the first valid archive time-stamp after it, else the
	// validation time.
	LowestPOE time.Time
	// Listings are the services listing the TSA path's anchor.
	Listings []Listing
}

// Result is a signature's qualification: each field nil when it does not
// apply (validation-service.md §2).
type Result struct {
	EIDAS       *string
	Swiss       *string
	Handwritten *bool
	// Notes say why the answer is not the highest, or not applicable.
	Notes []verdict.Message
}

// Evaluate qualifies the signature in.
func Evaluate(in Input) Result {
	switch in.Framework {
	case trust.EUEIDAS:
		v, notes := eidasQualification(in, only(in.Listings, trust.EUEIDAS))
		return Result{EIDAS: &v, Notes: notes}
	case trust.CHZERTES:
		v, notes := zertes(in, only(in.Listings, trust.CHZERTES))
		hw := false
		if v == ZertESQES {
			hw = qualifiedSwissTimestamp(in.Timestamps)
			if !hw {
				notes = append(notes, verdict.Say(CodeNoQualifiedTimestamp, "", "no qualified time-stamp from a time-stamping service on the Swiss list covers the signature: a QES, but not equivalent to a handwritten signature (Swiss CO Art. 14 para 2bis)"))
			}
		}
		return Result{Swiss: &v, Handwritten: &hw, Notes: notes}
	}
	return Result{}
}

func only(ls []Listing, f trust.Framework) []Listing {
	var out []Listing
	for _, l := range ls {
		if l.Framework == f {
			out = append(out, l)
		}
	}
	return out
}

// eidasQualification is the eIDAS signature qualification (reference
// c.4 and c.5): the certificate's qualification when issued and at
// signing time, combined, then the matrix with the indication.
func eidasQualification(in Input, listings []Listing) (string, []verdict.Message) {
	if len(listings) == 0 || in.Signer == nil {
		return NA, []verdict.Message{verdict.Say(CodeNoTrustedList, "", "the signing certificate chains to no service of an EU trusted list: no eIDAS qualification")}
	}
	e := eidas{facts: FactsOf(in.Signer), listings: listings}
	issued, whyIssued := e.at(in.Signer.NotBefore, issuance)
	signing, whySigning := e.at(in.BestSignatureTime, signingTime)
	q := final(issued, signing)
	v := signatureQualification(in.Indication, q)
	var notes []verdict.Message
	for _, l := range listings {
		if eq := l.Service.Equivalence; eq != nil {
			notes = append(notes, verdict.Say(CodeMRA, "", fmt.Sprintf(
				"the signer's CA is on the %s list, a third country's, recognised under a mutual recognition agreement (%s): its services are read in eIDAS terms", l.Territory, eq.LegalIdentifier),
				verdict.TextParam("Country", l.Territory), verdict.TextParam("Agreement", eq.LegalIdentifier)))
			break
		}
	}
	if v == QESig || v == QESeal {
		return v, notes
	}
	notes = append(notes, whySigning...)
	notes = append(notes, whyIssued...)
	if issued != signing && !issued.NA && !signing.NA {
		notes = append(notes, verdict.Say(CodeChangedSinceIssuance, "", fmt.Sprintf(
			"the certificate was %s when issued and %s at signing time", issued, signing),
			verdict.TextParam("Issued", issued.String()), verdict.TextParam("Signing", signing.String())))
	}
	if in.Indication != verdict.TotalPassed {
		notes = append(notes, verdict.Say(CodeSignatureNotPassed, "", fmt.Sprintf(
			"the signature is %s, so its qualification is %s", in.Indication, v),
			verdict.TextParam("Indication", string(in.Indication)), verdict.TextParam("Qualification", v)))
	}
	return v, dedupe(notes)
}

// qualifiedSwissTimestamp reports whether a time-stamp from a QTSA on
// the Swiss list covers the signature.
func qualifiedSwissTimestamp(tss []Timestamp) bool {
	for _, ts := range tss {
		if TimestampQualification(only(ts.Listings, trust.CHZERTES), ts.Generated, ts.LowestPOE) == QTSA {
			return true
		}
	}
	return false
}

func dedupe(ms []verdict.Message) []verdict.Message {
	var out []verdict.Message
	for _, m := range ms {
		dup := false
		for _, o := range out {
			if o.Code == m.Code && o.Message == m.Message { // the same sentence, so the same parameters
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, m)
		}
	}
	return out
}
