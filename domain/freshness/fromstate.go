package freshness

import "github.com/svc-dss/dss/domain/trust"

// FromState is the freshness input for a list as the trust snapshot holds
// it: the held copy's dates and anchors, and the refresh bookkeeping.
func FromState(st trust.ListState) List {
	l := List{
		Territory: st.Territory, Framework: st.Framework, URL: st.URL, AnchorSource: st.AnchorSource,
		Loaded: st.List != nil, Anchors: st.Anchors(),
		LastOnlineConfirmation: st.LastOnlineConfirmation, ConfirmedInThisProcess: st.ConfirmedInThisProcess,
		ConsecutiveFailures: st.ConsecutiveFailures, Authenticity: st.Authenticity, ParseFailed: st.ParseFailed,
		Refused: st.Refusal.Authenticity,
	}
	if st.List != nil {
		l.IssueDate, l.NextUpdate = st.List.IssueDate, st.List.NextUpdate
	}
	return l
}

// Bookkeeping returns st with the refresh bookkeeping of l (last online
// confirmation, confirmation in this process, consecutive failures, parse
// failure, a refusal cleared): what [Record] changes and the snapshot
// keeps. The refusal's reason is the caller's to set with the refusal.
func (l List) Bookkeeping(st trust.ListState) trust.ListState {
	st.LastOnlineConfirmation = l.LastOnlineConfirmation
	st.ConfirmedInThisProcess = l.ConfirmedInThisProcess
	st.ConsecutiveFailures = l.ConsecutiveFailures
	st.ParseFailed = l.ParseFailed
	if l.Refused == 0 {
		st.Refusal = trust.Check{}
	}
	return st
}
