package catalog_test

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// TestBannersAreTheDomainsSentence: the English banner templates render
// the banners freshness writes, one list or several, with files to
// supply or not, confirmed or never; the other languages render them
// with every parameter filled.
func TestBannersAreTheDomainsSentence(t *testing.T) {
	c := newCatalog(t)
	now := time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC)
	th := freshness.Thresholds{WarnAfter: 7 * 24 * time.Hour, FailAfter: 30 * 24 * time.Hour, FailureThreshold: 3}
	day := 24 * time.Hour
	list := func(territory, source string, change func(*freshness.List)) freshness.List {
		l := freshness.List{Territory: territory, Framework: trust.EUEIDAS, URL: "https://tl.example/" + territory, AnchorSource: source,
			Loaded: true, Anchors: 3, IssueDate: now.Add(-40 * day), NextUpdate: now.Add(140 * day),
			LastOnlineConfirmation: now.Add(-day), ConfirmedInThisProcess: true, Authenticity: trust.AuthValid}
		if change != nil {
			change(&l)
		}
		return l
	}
	cached := func(ago time.Duration) func(*freshness.List) {
		return func(l *freshness.List) {
			l.ConfirmedInThisProcess = false
			l.LastOnlineConfirmation = time.Time{}
			if ago != 0 {
				l.LastOnlineConfirmation = now.Add(-ago)
			}
		}
	}
	notChecked := func(l *freshness.List) { l.Authenticity = trust.AuthNotChecked }
	noSource := func(l *freshness.List) { l.Authenticity, l.AnchorSource = trust.AuthNotChecked, "" }
	tests := []struct {
		name  string
		lists []freshness.List
	}{
		{"no list loaded", []freshness.List{{Territory: "EU", Framework: trust.EUEIDAS}}},
		{"one not checked, a file", []freshness.List{list("CH", "certs/ch.cer", notChecked)}},
		{"several not checked, two files", []freshness.List{list("DE", "tl/eu.p12", notChecked), list("CH", "certs/ch.cer", notChecked)}},
		{"three files", []freshness.List{list("DE", "a.p12", notChecked), list("FR", "b.p12", notChecked), list("CH", "c.cer", notChecked)}},
		{"not checked, no file", []freshness.List{list("CH", "", noSource)}},
		{"invalid", []freshness.List{list("CH", "x", func(l *freshness.List) { l.Authenticity = trust.AuthInvalid })}},
		{"indeterminate, several", []freshness.List{list("DE", "x", func(l *freshness.List) { l.Authenticity = trust.AuthIndeterminate }),
			list("CH", "x", func(l *freshness.List) { l.Authenticity = trust.AuthIndeterminate })}},
		{"not loaded", []freshness.List{list("DE", "x", nil), {Territory: "FR", Framework: trust.EUEIDAS}}},
		{"expired", []freshness.List{list("DE", "x", cached(31*day)), list("CH", "x", cached(45*day))}},
		{"failing", []freshness.List{list("DE", "x", func(l *freshness.List) { l.ConsecutiveFailures = 3 })}},
		{"stale, capped", []freshness.List{list("AT", "x", cached(8*day)), list("BE", "x", cached(8*day)), list("BG", "x", cached(8*day)),
			list("CY", "x", cached(8*day)), list("CZ", "x", cached(8*day)), list("DE", "x", cached(8*day)), list("DK", "x", cached(8*day))}},
		{"cache only", []freshness.List{list("DE", "x", cached(2*day))}},
		{"cache only, never confirmed", []freshness.List{list("DE", "x", cached(0))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			statuses := make([]freshness.Status, len(tt.lists))
			for i, l := range tt.lists {
				statuses[i] = freshness.Evaluate(l, now, th)
			}
			b, shown := freshness.Aggregate(statuses).Banner()
			is.True(shown)
			vb := verdict.NewBanner(b)
			m := verdict.Message{ID: vb.ID, Params: vb.Params, Message: vb.Text}
			en, err := c.Render(catalog.English, m)
			is.NoErr(err)
			is.Equal(en, b.Text) // vb.ID
			for _, l := range catalog.Langs[1:] {
				s, err := c.Render(l, m)
				is.NoErr(err)
				is.True(s != b.Text)
			}
		})
	}
}
