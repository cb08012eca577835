package verdict_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

var (
	issued = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	th     = freshness.Thresholds{WarnAfter: 7 * 24 * time.Hour, FailAfter: 30 * 24 * time.Hour, FailureThreshold: 3}
)

func snapshot() *trust.Snapshot {
	de := &trust.List{Kind: trust.TL, Territory: "DE", SequenceNumber: 7, IssueDate: issued, NextUpdate: issued.AddDate(0, 6, 0),
		Providers: []trust.Provider{{Services: []trust.Service{{Identity: trust.Identity{Certificates: [][]byte{{1}, {2}, {1}}}}}}}}
	return &trust.Snapshot{
		Lists: []trust.ListState{
			{Territory: "DE", Kind: trust.TL, Framework: trust.EUEIDAS, URL: "https://tl.example/de.xml", List: de,
				Authenticity: trust.AuthValid, LastOnlineConfirmation: issued.Add(time.Hour), ConfirmedInThisProcess: true},
		},
		PrivateCA: trust.PrivateCA{Enabled: true, Directory: "/etc/svc/trust-anchors", Anchors: []trust.PrivateAnchor{
			{Subject: "CN=Private Root", NotBefore: issued.AddDate(-1, 0, 0), NotAfter: issued.AddDate(0, 0, 10)},
		}},
	}
}

// Results are deterministic: the same snapshot and instant give
// byte-identical JSON (ARCHITECTURE.md, "Rules of the house").
func TestTrustDataIsDeterministic(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	at := issued.Add(2 * time.Hour)
	a, err := json.Marshal(verdict.NewTrustData(snapshot(), at, th))
	is.NoErr(err)
	b, err := json.Marshal(verdict.NewTrustData(snapshot(), at, th))
	is.NoErr(err)
	is.True(bytes.Equal(a, b))
	is.True(bytes.Contains(a, []byte(`"state":"CURRENT","current":true,"lastConfirmed":"2026-11-01T01:00:00Z","anchorDataAuthenticated":true`)))
	is.True(bytes.Contains(a, []byte(`"anchors":2`))) // distinct certificates
}

// §2 "Private CA anchor": its notAfter is evaluated on every read; it has
// no freshness and never changes the aggregate.
func TestPrivateAnchorLapsesWhileRunning(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	snap := snapshot()
	before := verdict.NewTrustData(snap, issued.AddDate(0, 0, 5), th)
	after := verdict.NewTrustData(snap, issued.AddDate(0, 0, 11), th)
	is.Equal(before.PrivateCA.Anchors[0].Expired, false)
	is.Equal(after.PrivateCA.Anchors[0].Expired, true)
	is.Equal(after.PrivateCA.Anchors[0].Subject, "CN=Private Root")
	// The public list is stale by then; the private anchor has no say in it.
	snap.PrivateCA.Anchors = nil
	is.Equal(verdict.NewTrustData(snap, issued.AddDate(0, 0, 11), th).State, after.State)
	is.True(verdict.NewTrustData(snap, issued.AddDate(0, 0, 11), th).PrivateCA.LoadedNothing)
}

// §2 trustData: anchorDataAuthenticated is false unless a held list's
// signature was positively confirmed; a store that holds no list has
// confirmed nothing (NEVER_LOADED).
func TestAnchorDataAuthenticated(t *testing.T) {
	t.Parallel()
	at := issued.Add(2 * time.Hour)
	tests := []struct {
		name string
		edit func(*trust.Snapshot)
		want bool
	}{
		{"every held list authenticated", func(*trust.Snapshot) {}, true},
		{"a held list not authenticated", func(s *trust.Snapshot) { s.Lists[0].Authenticity = trust.AuthIndeterminate }, false},
		{"no list held (NEVER_LOADED)", func(s *trust.Snapshot) { s.Lists[0].List = nil }, false},
		{"no list configured", func(s *trust.Snapshot) { s.Lists = nil }, false},
		{"the latest copy of a held list refused", func(s *trust.Snapshot) {
			s.Lists[0].Refusal = trust.Check{Authenticity: trust.AuthIndeterminate, Reason: trust.ReasonAmbiguousReference}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := snapshot()
			tt.edit(snap)
			is.New(t).Equal(verdict.NewTrustData(snap, at, th).AnchorDataAuthenticated, tt.want)
		})
	}
}

// A refused copy: the list reports what its publisher serves now and why
// it was refused, while the copy in use (its dates, its anchors) is the
// older one; a SHA-1 list signature is a warning on the copy in use.
func TestListRefusalAndWarnings(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	snap := snapshot()
	snap.Lists[0].Refusal = trust.Check{Authenticity: trust.AuthIndeterminate, Reason: trust.ReasonCoversOtherElement}
	snap.Lists[0].SHA1Signature = true
	td := verdict.NewTrustData(snap, issued.Add(2*time.Hour), th)
	l := td.Lists[0]
	is.Equal(l.Authenticity, "INDETERMINATE")
	is.Equal(*l.Refused, verdict.ListRefusal{Authenticity: "INDETERMINATE", Reason: "COVERS_OTHER_ELEMENT", Text: trust.ReasonCoversOtherElement.Text()})
	is.Equal(*l.SequenceNumber, 7) // the copy in use
	is.Equal(l.Anchors, 2)
	is.Equal(l.Category, "signature-indeterminate")
	is.True(td.Degraded)
	is.True(!td.Current)
	is.Equal(td.Banner.Category, "signature-indeterminate")
	is.Equal(len(l.Warnings), 1)
	is.Equal(l.Warnings[0].Code, verdict.WarningListSignatureSHA1)

	b, err := json.Marshal(l)
	is.NoErr(err)
	is.True(bytes.Contains(b, []byte(`"refused":{"authenticity":"INDETERMINATE","reason":"COVERS_OTHER_ELEMENT","text":"`)))
	is.True(bytes.Contains(b, []byte(`"warnings":[{"code":"LIST_SIGNATURE_SHA1","text":"`)))
}
