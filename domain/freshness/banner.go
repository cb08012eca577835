package freshness

import (
	"fmt"
	"strings"
	"time"
)

// A Banner is the persistent, non-dismissible notice the upload form and
// the result page show when trust data is not confirmed current
// (validation-service.md §3, "Where degradation is surfaced"). Text is
// short, stable English built from fixed templates, list names and dates,
// never from error text. Category is the machine-readable form for the API.
type Banner struct {
	Category Category
	Text     string
	// Lists, More, Files and Confirmed are what Text is made of, so that
	// a catalogue can say it in another language (docs/decisions/0038):
	// the names of the lists shown, how many more there are, the files
	// to supply, and the oldest confirmation online (zero: never).
	Lists     []string
	More      int
	Files     []string
	Confirmed time.Time
}

// maxNames caps how many lists a banner names; the rest are counted.
const maxNames = 5

// Banner returns the notice for the store, and false when there is none
// because the store is Current. It speaks of the most important problem
// only (see [Category] for the rank): authenticity problems outrank
// staleness (§3 "Authenticity"); an empty store is reported as a
// configuration problem of the validator, not a property of the document
// (§3 "Degraded behaviour" 3), and only then with the words 'no trusted
// list is loaded' (§3 rule 3). A list whose signature could not be checked
// names the file to supply (§1, "Runtime prerequisites"), taken from
// [List.AnchorSource].
//
// Dates are written as YYYY-MM-DD in UTC.
func (s Summary) Banner() (Banner, bool) {
	if s.Current || s.Category == 0 {
		return Banner{}, false
	}
	b := Banner{Category: s.Category}
	if s.Category == CategoryNoListLoaded {
		b.Text = "No trusted list is loaded. This is a configuration problem of the validator, not a property of the document."
		return b, true
	}
	var (
		names, files []string
		oldest       time.Time
	)
	for _, st := range s.Lists {
		if st.Category != s.Category {
			continue
		}
		names = appendNew(names, st.List.Name())
		if st.List.AnchorSource != "" {
			files = appendNew(files, st.List.AnchorSource)
		}
		if !st.LastConfirmed.IsZero() && (oldest.IsZero() || st.LastConfirmed.Before(oldest)) {
			oldest = st.LastConfirmed
		}
	}
	subj, one := subject(names)
	b.Lists, b.More, b.Files, b.Confirmed = names[:min(len(names), maxNames)], max(len(names)-maxNames, 0), files, oldest
	is, its := "are", "their"
	if one {
		is, its = "is", "its"
	}
	switch s.Category {
	case CategorySignatureInvalid:
		// A copy that fails is refused (decision 0026): what the
		// publisher serves is not what is in use.
		b.Text = fmt.Sprintf("%s failed %s signature check (invalid signature) and %s not used as served; anchor data is not confirmed.", subj, its, is)
	case CategorySignatureIndeterminate:
		b.Text = fmt.Sprintf("%s %s not signed by a configured signer or not covered by %s signature (indeterminate) and %s not used as served; anchor data is not confirmed.", subj, is, its, is)
	case CategorySignatureNotChecked:
		if len(files) == 0 {
			b.Text = fmt.Sprintf("%s could not be authenticated: no signer certificate is configured.", subj)
		} else {
			b.Text = fmt.Sprintf("%s could not be authenticated: supply %s.", subj, andList(files))
		}
	case CategoryParseFailure:
		b.Text = fmt.Sprintf("%s could not be parsed; %s anchors are not available.", subj, its)
	case CategoryNeverLoaded:
		b.Text = fmt.Sprintf("%s %s not loaded; %s anchors are not available.", subj, is, its)
	case CategoryExpired:
		b.Text = fmt.Sprintf("%s %s expired; trust data %s.", subj, is, confirmed(oldest))
	case CategoryDownloadFailing:
		b.Text = fmt.Sprintf("Refresh of %s keeps failing; trust data %s.", strings.ToLower(subj[:1])+subj[1:], confirmed(oldest))
	case CategoryStale:
		b.Text = fmt.Sprintf("%s %s stale; trust data %s.", subj, is, confirmed(oldest))
	case CategoryCacheOnly:
		b.Text = "Trust data is from the cache and not yet confirmed online."
		if !oldest.IsZero() {
			b.Text = fmt.Sprintf("Trust data is from the cache and not yet confirmed online (as of %s).", day(oldest))
		}
	}
	return b, true
}

// subject names the lists: "Trusted list DE", "Trusted lists DE, FR",
// "Trusted lists AT, BE, CY, CZ, DE and 3 more"; one reports a single list.
func subject(names []string) (text string, one bool) {
	if len(names) == 1 {
		return "Trusted list " + names[0], true
	}
	shown := names[:min(len(names), maxNames)]
	text = "Trusted lists " + strings.Join(shown, ", ")
	if more := len(names) - len(shown); more > 0 {
		text += fmt.Sprintf(" and %d more", more)
	}
	return text, false
}

// confirmed says when trust data was last confirmed.
// andList is "a", "a and b", "a, b and c".
func andList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func confirmed(t time.Time) string {
	if t.IsZero() {
		return "never confirmed"
	}
	return "last confirmed " + day(t)
}

func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
