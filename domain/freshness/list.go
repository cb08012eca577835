package freshness

import (
	"time"

	"github.com/svc-dss/dss/domain/trust"
)

// A List is what the service knows about one public trusted list (the EU
// LOTL, a member-state list, or the Swiss list) when freshness is read:
// the recorded outcomes of its refreshes and the dates of the copy it
// holds. Private CA anchors are never Lists: they have no publisher, issue
// date, next update or refresh (validation-service.md §2, "Private CA
// anchor").
//
// Adapters fill a List from the trust snapshot and the cache metadata;
// [Record] moves it forward by one refresh outcome. The zero value is a
// list that was never loaded and never attempted.
type List struct {
	// Territory is the list's scheme territory: "EU" for the LOTL, "DE",
	// "CH"… It names the list in banners.
	Territory string
	// Framework is the legal framework of the anchors the list yields.
	Framework trust.Framework
	// URL is where the list is fetched from. It names the list in banners
	// when Territory is empty.
	URL string
	// AnchorSource names the configured file the list's own signature is
	// checked against (the EU keystore, tl/eu-oj-keystore.p12, or the
	// Swiss signer certificate, certs/CH-TL-cert-DER.cer). The banner names
	// it as the file to supply when the check could not be made. Empty
	// when there is nothing to name.
	AnchorSource string

	// Loaded reports that a usable copy of the list is held now, from the
	// cache or from a download. False means NEVER_LOADED.
	Loaded bool
	// Anchors is how many trust anchors the held copy yields. A LOTL yields
	// none of its own.
	Anchors int
	// IssueDate is the held copy's ListIssueDateTime.
	IssueDate time.Time
	// NextUpdate is the held copy's NextUpdate. Zero means the list is
	// closed (an empty NextUpdate, ETSI TS 119 612 §5.3.15): its publisher
	// abandoned it, and it is treated as lapsed since its IssueDate.
	NextUpdate time.Time

	// LastOnlineConfirmation is when an online refresh last succeeded for
	// this list (downloaded, or digest unchanged), in this process or, from
	// the persisted cache metadata, an earlier one. Zero means never
	// confirmed online: axis 1 then counts from IssueDate.
	LastOnlineConfirmation time.Time
	// ConfirmedInThisProcess reports that an online refresh of this list
	// succeeded in this process. Without it a held copy is at best
	// CACHE_ONLY, never CURRENT.
	ConfirmedInThisProcess bool
	// ConsecutiveFailures counts refresh attempts of this list that failed
	// (download or parse) since its last success.
	ConsecutiveFailures int
	// Authenticity is the outcome of checking the held copy's own
	// signature. Zero on a held copy means no outcome was recorded, which
	// counts as not positively confirmed.
	Authenticity trust.Authenticity
	// Refused is the authenticity (INVALID or INDETERMINATE) of the latest
	// copy that was read and refused; zero when the latest copy was
	// adopted. A refusal degrades the list whatever the held copy's
	// Authenticity.
	Refused trust.Authenticity
	// ParseFailed reports that the last fetched copy did not parse (§3
	// rule 8). [Record] drops the held copy with it, as the store is
	// rebuilt without the list; if a copy is still held, Evaluate judges it
	// by the axes and still reports the parse failure. A later successful
	// refresh clears it.
	ParseFailed bool
}

// Name is how banners name the list: its Territory, else its URL, else
// "(unnamed)".
func (l List) Name() string {
	switch {
	case l.Territory != "":
		return l.Territory
	case l.URL != "":
		return l.URL
	}
	return "(unnamed)"
}

// Status is the freshness of one list at one instant, as [Evaluate]
// computes it. It is a value: it does not change when time passes.
type Status struct {
	// List is the input the status was computed from.
	List List
	// State is the worse of the two axes, or NEVER_LOADED when no usable
	// copy is held.
	State State
	// SinceConfirmation is axis 1: the state by the time since the last
	// online confirmation (or issue date). Unset when State is NEVER_LOADED.
	SinceConfirmation State
	// SinceNextUpdate is axis 2: the state by the time past the list's own
	// NextUpdate. Unset when State is NEVER_LOADED.
	SinceNextUpdate State
	// LastConfirmed is the instant axis 1 counts from: the last online
	// confirmation, or the issue date of a copy never confirmed online.
	// Zero when neither is known. It is the date the annotations show as
	// "last confirmed" (§3 "Degraded behaviour" 2).
	LastConfirmed time.Time
	// Failing reports that the consecutive failures reached the failure
	// threshold. It is separate from the five states: a failing list can
	// still be CURRENT until warn-after passes.
	Failing bool
	// Degraded reports that the list's own signature was not positively
	// confirmed: the latest copy read was refused, Authenticity is short
	// of VALID on a held copy, or is a recorded failure on a list that
	// holds none. It makes the store
	// degraded regardless of freshness (§3 "Authenticity").
	Degraded bool
	// Category is the list's most important problem, zero when it has none.
	Category Category
}

// Evaluate computes the freshness of one list at now.
//
// From validation-service.md §3 rule 1:
//
//	> Freshness is evaluated when read, not when a refresh runs, on two
//	> independent axes: time since this service confirmed the list online,
//	> and time past the publisher-declared NextUpdate. The worse axis wins.
//
// Axis 1 counts from LastOnlineConfirmation, or from IssueDate when the
// copy was never confirmed online: STALE once WarnAfter is reached, EXPIRED
// once FailAfter is reached. Axis 2 counts from NextUpdate (from IssueDate
// for a closed list): STALE once NextUpdate is reached, whatever the
// thresholds (rule 2), EXPIRED once FailAfter has passed since. A threshold
// is crossed at the instant it is reached: an age equal to WarnAfter is
// STALE. Where neither axis is stale, the list is CURRENT if it was
// confirmed online in this process and CACHE_ONLY otherwise. A list with no
// usable copy is NEVER_LOADED. A list whose dates are unknown (zero) on an
// axis is EXPIRED on that axis: nothing confirms it.
//
// Evaluate does not validate th (see [Thresholds.Validate]), does not read
// the clock, and never blocks anything: the states annotate verdicts, they
// do not refuse them (§1.8, §3 "Degraded behaviour" 5).
func Evaluate(l List, now time.Time, th Thresholds) Status {
	s := Status{
		List:          l,
		LastConfirmed: l.LastOnlineConfirmation,
		Failing:       l.ConsecutiveFailures > 0 && l.ConsecutiveFailures >= th.FailureThreshold,
		Degraded:      degraded(l),
	}
	if s.LastConfirmed.IsZero() {
		s.LastConfirmed = l.IssueDate
	}
	if !l.Loaded {
		s.State = NeverLoaded
	} else {
		fresh := CacheOnly
		if l.ConfirmedInThisProcess {
			fresh = Current
		}
		s.SinceConfirmation = age(s.LastConfirmed, now, th.WarnAfter, th.FailAfter, fresh)
		lapse := l.NextUpdate
		if lapse.IsZero() {
			lapse = l.IssueDate // closed: lapsed since it was issued
		}
		s.SinceNextUpdate = age(lapse, now, 0, th.FailAfter, fresh)
		s.State = worst(s.SinceConfirmation, s.SinceNextUpdate)
	}
	s.Category = category(l, s)
	return s
}

// age places the instant from on one axis: EXPIRED once fail has elapsed
// since it, STALE once warn has, fresh before. An unknown (zero) instant
// confirms nothing and is EXPIRED.
func age(from, now time.Time, warn, fail time.Duration, fresh State) State {
	if from.IsZero() {
		return Expired
	}
	switch d := now.Sub(from); {
	case d >= fail:
		return Expired
	case d >= warn:
		return Stale
	}
	return fresh
}

// degraded applies §3 "Authenticity": anything short of VALID degrades. A
// list that holds no copy and has no recorded outcome has nothing to
// authenticate.
func degraded(l List) bool {
	if l.Refused != 0 {
		return true
	}
	if l.Authenticity == trust.AuthValid {
		return false
	}
	return l.Loaded || l.Authenticity != 0
}

// category picks the list's most important problem in the rank order of
// the Category constants.
func category(l List, s Status) Category {
	switch {
	case l.Refused == trust.AuthInvalid:
		return CategorySignatureInvalid
	case l.Refused == trust.AuthIndeterminate:
		return CategorySignatureIndeterminate
	case s.Degraded && l.Authenticity == trust.AuthInvalid:
		return CategorySignatureInvalid
	case s.Degraded && l.Authenticity == trust.AuthIndeterminate:
		return CategorySignatureIndeterminate
	case s.Degraded:
		return CategorySignatureNotChecked
	case l.ParseFailed:
		return CategoryParseFailure
	case s.State == NeverLoaded:
		return CategoryNeverLoaded
	case s.State == Expired:
		return CategoryExpired
	case s.Failing:
		return CategoryDownloadFailing
	case s.State == Stale:
		return CategoryStale
	case s.State == CacheOnly:
		return CategoryCacheOnly
	}
	return 0
}
