package freshness

import (
	"time"

	"github.com/svc-dss/dss/domain/trust"
)

// OutcomeKind is what one refresh attempt of one list came to.
type OutcomeKind uint8

const (
	_ OutcomeKind = iota
	// Downloaded: a new copy was downloaded and parsed and is now held.
	// An online confirmation.
	Downloaded // downloaded
	// Unchanged: the publisher was reached and the list's digest is the one
	// of the held copy, so the copy was not downloaded again. An online
	// confirmation: the check succeeded.
	Unchanged // unchanged
	// DownloadFailed: the publisher was not reached or the download failed.
	// The held copy, if any, stays in use.
	DownloadFailed // download-failed
	// ParseFailed: a copy was fetched but did not parse; the store is
	// rebuilt without the list, dropping its anchors (§3 rule 8).
	ParseFailed // parse-failed
	// Refused: a copy was fetched and parsed, but its own signature is
	// INVALID or INDETERMINATE: it is not adopted. The held copy, if any,
	// stays in use, unconfirmed; the refusal degrades the list until a
	// copy is adopted again.
	Refused // refused
)

func (k OutcomeKind) String() string {
	switch k {
	case Downloaded:
		return "downloaded"
	case Unchanged:
		return "unchanged"
	case DownloadFailed:
		return "download-failed"
	case ParseFailed:
		return "parse-failed"
	case Refused:
		return "refused"
	}
	return ""
}

// Confirmed reports whether the outcome is an online confirmation of the
// list: Downloaded or Unchanged.
func (k OutcomeKind) Confirmed() bool { return k == Downloaded || k == Unchanged }

// An Outcome is the recorded result of one refresh attempt of one list.
// It carries facts, not error text: the raw failure goes to the log line
// of the refresh, never into the domain.
type Outcome struct {
	Kind OutcomeKind
	// Authenticity is the outcome of checking the fetched copy's own
	// signature. Required for Downloaded and Refused. For Unchanged, zero
	// keeps the recorded outcome (the bytes did not change) and any other
	// value replaces it (the check was re-run, e.g. after the keystore was
	// supplied). Ignored for the other failures.
	Authenticity trust.Authenticity
	// IssueDate, NextUpdate and Anchors describe the parsed copy; used for
	// Downloaded only. A zero NextUpdate means the list is closed.
	IssueDate  time.Time
	NextUpdate time.Time
	Anchors    int
}

// Record returns l after one refresh outcome observed at now. It is the
// only way a refresh changes freshness (§3 rule 7):
//
//	> A scheduled refresh is not treated as a successful one. The outcome
//	> recorded for each individual list after every pass is read, so a
//	> refresh that reached nothing is reported as such.
//
// A confirmation (Downloaded or Unchanged) sets LastOnlineConfirmation to
// now, sets ConfirmedInThisProcess, resets ConsecutiveFailures and clears
// ParseFailed; Downloaded also replaces the copy's dates, anchor count and
// authenticity and marks it Loaded. Unchanged keeps the held copy as it is;
// a caller that (re)loads a copy into the store records Downloaded.
// DownloadFailed only counts a failure: the held copy stays in use and is
// not confirmed. Refused counts a failure and records the refused
// authenticity (List.Refused) until a confirmation clears it; the held
// copy stays in use, not confirmed. ParseFailed counts a failure, sets ParseFailed and drops
// the copy (Loaded false, no anchors, no authenticity outcome), as the
// store is rebuilt without it; the dates and the last confirmation stay
// for the record. An unset Kind changes nothing.
//
// Record does not evaluate: call [Evaluate] at read time.
func Record(l List, o Outcome, now time.Time) List {
	switch o.Kind {
	case Downloaded:
		l.Loaded = true
		l.Anchors = o.Anchors
		l.IssueDate = o.IssueDate
		l.NextUpdate = o.NextUpdate
		l.Authenticity = o.Authenticity
	case Unchanged:
		if o.Authenticity != 0 {
			l.Authenticity = o.Authenticity
		}
	case DownloadFailed:
		l.ConsecutiveFailures++
		return l
	case Refused:
		l.ConsecutiveFailures++
		l.Refused = o.Authenticity
		return l
	case ParseFailed:
		l.ConsecutiveFailures++
		l.ParseFailed = true
		l.Loaded = false
		l.Anchors = 0
		l.Authenticity = 0
		return l
	default:
		return l
	}
	l.LastOnlineConfirmation = now
	l.ConfirmedInThisProcess = true
	l.ConsecutiveFailures = 0
	l.ParseFailed = false
	l.Refused = 0
	return l
}
