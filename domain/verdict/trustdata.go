package verdict

import (
	"slices"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
)

// TrustData is the trust store's state at one instant, as the verdict and
// GET /api/trust-status report it (validation-service.md §2, §3). The
// field list beyond state, lastConfirmed and current is ours: see
// docs/trust-status.md.
type TrustData struct {
	// State is the aggregate freshness state, worst wins.
	State string `json:"state"`
	// Current is false whenever the store is not confirmed current,
	// including whenever a list failed or missed its signature check.
	Current bool `json:"current"`
	// LastConfirmed is the date the trust data was last confirmed online
	// (the weakest list's), null when never.
	LastConfirmed *time.Time `json:"lastConfirmed"`
	// AnchorDataAuthenticated is false when any held list's own signature
	// was not positively confirmed, and when no list is held: nothing was
	// confirmed then.
	AnchorDataAuthenticated bool `json:"anchorDataAuthenticated"`
	// Degraded and Failing mirror the aggregate flags.
	Degraded bool `json:"degraded"`
	Failing  bool `json:"failing"`
	// Category is the short machine name of the most important problem;
	// empty when current.
	Category string `json:"category,omitempty"`
	// Banner is the persistent notice of the UI; null when current.
	Banner *Banner `json:"banner"`
	// EvaluatedAt is the instant the states were evaluated at.
	EvaluatedAt time.Time    `json:"evaluatedAt"`
	Lists       []ListStatus `json:"lists"`
	PrivateCA   PrivateCA    `json:"privateCa"`
	// WithdrawalWindowDays is the configured withdrawal window
	// (freshness.Thresholds.WithdrawalWindow) in days.
	WithdrawalWindowDays int `json:"withdrawalWindowDays"`
	// Snapshot names the lists and anchors in use, by digest; omitted
	// when the caller did not compute it (it needs the lists' bytes,
	// which the application holds: app/validation).
	Snapshot *TrustSnapshot `json:"snapshot,omitempty"`
}

// Banner is the notice shown on the upload form and the result page. ID
// and Params let a catalogue say Text in another language, as a
// Message's (docs/decisions/0038); they are not published.
type Banner struct {
	Category string  `json:"category"`
	Text     string  `json:"text"`
	ID       string  `json:"-"`
	Params   []Param `json:"-"`
}

// NewBanner is the trust data's banner of b.
func NewBanner(b freshness.Banner) *Banner {
	id, params := bannerTemplate(b)
	return &Banner{Category: b.Category.String(), Text: b.Text, ID: id, Params: params}
}

// bannerTemplate is the template ID of b's text and its parameters:
// "banner.", the category and, but for the two categories that name no
// list, whether it names one list or several, and for an unchecked
// signature whether it names files to supply.
func bannerTemplate(b freshness.Banner) (string, []Param) {
	id := "banner." + b.Category.String()
	switch b.Category {
	case freshness.CategoryNoListLoaded, freshness.CategoryCacheOnly:
	default:
		if len(b.Lists) == 1 && b.More == 0 {
			id += ".one"
		} else {
			id += ".many"
		}
		if b.Category == freshness.CategorySignatureNotChecked && len(b.Files) > 0 {
			id += "-files"
		}
	}
	confirmed := Param{Name: "Confirmed", Kind: Date}
	if !b.Confirmed.IsZero() {
		confirmed = DateParam("Confirmed", b.Confirmed)
	}
	first, last := "", ""
	if n := len(b.Files); n > 0 {
		first, last = strings.Join(b.Files[:n-1], ", "), b.Files[n-1]
	}
	return id, []Param{TextParam("Lists", strings.Join(b.Lists, ", ")), NumberParam("More", b.More),
		TextParam("Files", first), TextParam("LastFile", last), confirmed}
}

// ListStatus is one public list.
type ListStatus struct {
	Territory              string     `json:"territory"`
	Kind                   string     `json:"kind"` // LOTL or TL
	Framework              string     `json:"framework"`
	URL                    string     `json:"url"`
	State                  string     `json:"state"`
	Authenticity           string     `json:"authenticity,omitempty"`
	SequenceNumber         *int       `json:"sequenceNumber"`
	IssueDate              *time.Time `json:"issueDate"`
	NextUpdate             *time.Time `json:"nextUpdate"`
	LastOnlineConfirmation *time.Time `json:"lastOnlineConfirmation"`
	ConsecutiveFailures    int        `json:"consecutiveFailures"`
	Failing                bool       `json:"failing"`
	ParseFailed            bool       `json:"parseFailed"`
	Anchors                int        `json:"anchors"`
	Category               string     `json:"category,omitempty"`
	// Refused reports the latest copy read that was refused because its
	// own signature is not VALID; the copy in use, if any, is older.
	Refused *ListRefusal `json:"refused,omitempty"`
	// LastRefresh is the outcome of the latest online refresh of the
	// list, as the cache recorded it; absent before the first.
	LastRefresh *ListRefresh `json:"lastRefresh,omitempty"`
	// Warnings are what the copy in use is accepted despite.
	Warnings []ListWarning `json:"warnings,omitempty"`
}

// ListRefresh is what the latest online refresh of a list came to.
type ListRefresh struct {
	// Outcome is "ok", or the failure: "download", "parse",
	// "signature-invalid", "signature-indeterminate".
	Outcome string    `json:"outcome"`
	At      time.Time `json:"at"`
}

// ListRefusal is why the latest copy of a list read was not adopted.
type ListRefusal struct {
	Authenticity string `json:"authenticity"` // INVALID or INDETERMINATE
	Reason       string `json:"reason"`       // a trust.AuthReason code
	Text         string `json:"text"`
}

// ListWarning is something the copy of a list in use is accepted despite.
type ListWarning struct {
	Code string `json:"code"`
	Text string `json:"text"`
}

// WarningListSignatureSHA1 marks a list whose own signature uses SHA-1.
const WarningListSignatureSHA1 = "LIST_SIGNATURE_SHA1"

// PrivateCA reports the administrator-supplied anchors. They are outside
// freshness and outside the aggregate.
type PrivateCA struct {
	Enabled   bool            `json:"enabled"`
	Directory string          `json:"directory,omitempty"`
	Anchors   []PrivateAnchor `json:"anchors"`
	// LoadedNothing is true when private CAs are enabled but no anchor was
	// loaded (validation-service.md §3 "Degraded behaviour" 6).
	LoadedNothing bool     `json:"loadedNothing"`
	Skipped       []string `json:"skipped,omitempty"`
	Problem       string   `json:"problem,omitempty"`
}

// PrivateAnchor is one private CA anchor, named by its subject.
type PrivateAnchor struct {
	Subject  string    `json:"subject"`
	NotAfter time.Time `json:"notAfter"`
	Expired  bool      `json:"expired"`
}

// NewTrustData evaluates snap at now: every list's freshness, the
// aggregate, the banner and the private anchors' validity. It reads no
// clock: the same snapshot and instant give the same value.
func NewTrustData(snap *trust.Snapshot, now time.Time, th freshness.Thresholds) TrustData {
	statuses := make([]freshness.Status, len(snap.Lists))
	for i, l := range snap.Lists {
		statuses[i] = freshness.Evaluate(freshness.FromState(l), now, th)
	}
	sum := freshness.Aggregate(statuses)
	td := TrustData{
		State:                   sum.State.String(),
		Current:                 sum.Current,
		LastConfirmed:           timePtr(sum.LastConfirmed),
		AnchorDataAuthenticated: slices.ContainsFunc(snap.Lists, func(l trust.ListState) bool { return l.List != nil }),
		Degraded:                sum.Degraded,
		Failing:                 sum.Failing,
		EvaluatedAt:             now.UTC(),
		Lists:                   make([]ListStatus, len(snap.Lists)),
		PrivateCA:               privateCA(snap.PrivateCA, now),
		WithdrawalWindowDays:    int(th.WithdrawalWindow / (24 * time.Hour)),
	}
	if sum.Category != 0 {
		td.Category = sum.Category.String()
	}
	if b, ok := sum.Banner(); ok {
		td.Banner = NewBanner(b)
	}
	for i, l := range snap.Lists {
		st := statuses[i]
		ls := ListStatus{
			Territory: l.Territory, Kind: kind(l.Kind), Framework: l.Framework.String(), URL: l.URL,
			State: st.State.String(), Authenticity: l.Authenticity.String(),
			LastOnlineConfirmation: timePtr(l.LastOnlineConfirmation),
			ConsecutiveFailures:    l.ConsecutiveFailures, Failing: st.Failing, ParseFailed: l.ParseFailed,
			Anchors: l.Anchors(),
		}
		if st.Category != 0 {
			ls.Category = st.Category.String()
		}
		if l.LastRefresh != "" {
			ls.LastRefresh = &ListRefresh{Outcome: l.LastRefresh, At: l.LastRefreshAt.UTC()}
		}
		if r := l.Refusal; r.Refused() {
			// The list reports what its publisher serves now; the copy in
			// use, whose dates follow, authenticated when it was adopted.
			// The trust data is not positively confirmed while it lasts.
			ls.Authenticity = r.Authenticity.String()
			td.AnchorDataAuthenticated = false
			ls.Refused = &ListRefusal{Authenticity: r.Authenticity.String(), Reason: r.Reason.String(), Text: r.Reason.Text()}
		}
		if l.List != nil && l.SHA1Signature {
			ls.Warnings = append(ls.Warnings, ListWarning{Code: WarningListSignatureSHA1,
				Text: "the list's own signature uses SHA-1, which no longer resists collisions; it is accepted for now"})
		}
		if l.List != nil {
			seq := l.List.SequenceNumber
			ls.SequenceNumber = &seq
			ls.IssueDate = timePtr(l.List.IssueDate)
			ls.NextUpdate = timePtr(l.List.NextUpdate)
			if l.Authenticity != trust.AuthValid {
				td.AnchorDataAuthenticated = false
			}
		}
		td.Lists[i] = ls
	}
	return td
}

func privateCA(p trust.PrivateCA, now time.Time) PrivateCA {
	out := PrivateCA{Enabled: p.Enabled, Directory: p.Directory, Anchors: []PrivateAnchor{}, Skipped: p.Skipped, Problem: p.Problem}
	if !p.Enabled {
		return out
	}
	for _, a := range p.Anchors {
		out.Anchors = append(out.Anchors, PrivateAnchor{Subject: a.Subject, NotAfter: a.NotAfter.UTC(), Expired: a.Expired(now)})
	}
	out.LoadedNothing = len(p.Anchors) == 0
	return out
}

func kind(k trust.Kind) string {
	if k == trust.LOTL {
		return "LOTL"
	}
	return "TL"
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}
