package freshness_test

import (
	"time"

	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
)

// All times are pinned. now is the read instant most cases evaluate at.
var (
	now = time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC)
	th  = freshness.Thresholds{WarnAfter: 7 * day, FailAfter: 30 * day, FailureThreshold: 3}
)

const day = 24 * time.Hour

// current is a member-state list downloaded and authenticated in this
// process one day before now; issued 40 days before now, next update in
// 140 days.
func current() freshness.List {
	return freshness.List{
		Territory:              "DE",
		Framework:              trust.EUEIDAS,
		URL:                    "https://tl.example.de/tl-de.xml",
		AnchorSource:           "tl/eu-oj-keystore.p12",
		Loaded:                 true,
		Anchors:                42,
		IssueDate:              now.Add(-40 * day),
		NextUpdate:             now.Add(140 * day),
		LastOnlineConfirmation: now.Add(-1 * day),
		ConfirmedInThisProcess: true,
		Authenticity:           trust.AuthValid,
	}
}

// swiss is current() for the Swiss list.
func swiss() freshness.List {
	l := current()
	l.Territory, l.Framework = "CH", trust.CHZERTES
	l.URL = "https://tl.example.ch/tsl-ch.xml"
	l.AnchorSource = "certs/CH-TL-cert-DER.cer"
	return l
}

// cached is a copy loaded from the on-disk cache at start-up, confirmed
// online by an earlier process confirmedAgo before now (zero: never).
func cached(l freshness.List, confirmedAgo time.Duration) freshness.List {
	l.ConfirmedInThisProcess = false
	l.LastOnlineConfirmation = time.Time{}
	if confirmedAgo != 0 {
		l.LastOnlineConfirmation = now.Add(-confirmedAgo)
	}
	return l
}

// with applies changes to a copy of l.
func with(l freshness.List, change func(*freshness.List)) freshness.List {
	change(&l)
	return l
}

// view is the part of a Status most cases assert on.
type view struct {
	State, Axis1, Axis2 freshness.State
	Failing, Degraded   bool
	Category            freshness.Category
}

func viewOf(s freshness.Status) view {
	return view{s.State, s.SinceConfirmation, s.SinceNextUpdate, s.Failing, s.Degraded, s.Category}
}
