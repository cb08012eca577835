package main

import (
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/tl"
)

// The running service refreshes its lists while the DE publisher (or a
// proxy on its way) starts serving a signature-wrapped copy of DE's list,
// whose signature references its root by Id: the service keeps the good
// copy in use, reports the list not authenticated with the reason, and
// the store degraded, on the trust surface and in the refresh's log line.
func TestWrappedListDuringRefresh(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	eco, env := ecosystem(t)
	spec := eco.Spec("DE")
	spec.SignRootByID = true
	genuine, err := tl.Sign(spec, eco.MemberSigner, nil, 0)
	is.NoErr(err)
	eco.Publisher.Put(tl.MemberPath("DE"), genuine)

	s := start(t, nil, append(env,
		"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY=PT0S",
		"SVC_DSS_VALIDATOR_REFRESH_CRON=* * * * * *", // a refresh every second
	)...)
	good := list(waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.Current }), "DE")
	is.Equal(good.Authenticity, "VALID")

	wrapped, err := tl.Wrap(genuine, eco.Stranger.Certificate.Raw, tl.WrapPrefixedID)
	is.NoErr(err)
	eco.Publisher.Put(tl.MemberPath("DE"), wrapped)
	td := waitFor(t, s.URL, func(td verdict.TrustData) bool { return list(td, "DE").Refused != nil })
	de := list(td, "DE")
	is.Equal(de.Authenticity, "INDETERMINATE")
	is.Equal(de.Refused.Reason, "AMBIGUOUS_REFERENCE")
	is.Equal(*de.SequenceNumber, *good.SequenceNumber) // the good copy stays in use
	is.Equal(de.Anchors, good.Anchors)
	is.Equal(de.Category, "signature-indeterminate")
	is.True(td.Degraded)
	is.True(!td.Current)
	is.True(!td.AnchorDataAuthenticated)
	is.Equal(td.Banner.Category, "signature-indeterminate")
	is.True(strings.Contains(s.Logs.String(), "DE=signature-indeterminate"))

	// The publisher serves the genuine list again: the refusal clears.
	eco.Publisher.Put(tl.MemberPath("DE"), genuine)
	td = waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.Current })
	is.Equal(list(td, "DE").Refused, nil)
}
