package freshness

import "fmt"

// Category is the short, stable, machine-readable name of a list's most
// important problem, carried by the banner and the API instead of raw
// error text (validation-service.md §3, "Where degradation is surfaced":
// raw failure text only in the logs). The zero value means no problem:
// the list is CURRENT, authenticated and not failing.
//
// Categories rank in the order of the constants, most important first
// (see [Category.Outranks]): [CategoryNoListLoaded]; then the authenticity
// outcomes [CategorySignatureInvalid], [CategorySignatureIndeterminate] and
// [CategorySignatureNotChecked], because §3 "Authenticity" ranks them above
// any staleness message; then [CategoryParseFailure],
// [CategoryNeverLoaded], [CategoryExpired], [CategoryDownloadFailing],
// [CategoryStale] and [CategoryCacheOnly].
type Category uint8

const (
	_ Category = iota
	// CategoryNoListLoaded: no public list yields anchors; a configuration problem
	// of the validator. Only [Aggregate] reports it, never [Evaluate].
	CategoryNoListLoaded // no-list-loaded
	// CategorySignatureInvalid: the list's own signature failed (tampered).
	CategorySignatureInvalid // signature-invalid
	// CategorySignatureIndeterminate: the list's signer is not one it may be
	// signed by (substituted list, unconfigured anchor) or the list is
	// unsigned.
	CategorySignatureIndeterminate // signature-indeterminate
	// CategorySignatureNotChecked: nothing to check the list's signature against
	// (missing keystore or signer certificate), or no outcome recorded for
	// a held copy.
	CategorySignatureNotChecked // signature-not-checked
	// CategoryParseFailure: the last fetched copy did not parse and its anchors
	// were dropped (§3 rule 8).
	CategoryParseFailure // parse-failure
	// CategoryNeverLoaded: no usable copy of the list is held.
	CategoryNeverLoaded // never-loaded
	// CategoryExpired: the list is EXPIRED.
	CategoryExpired // expired
	// CategoryDownloadFailing: consecutive refresh failures reached the
	// failure threshold.
	CategoryDownloadFailing // download-failing
	// CategoryStale: the list is STALE.
	CategoryStale // stale
	// CategoryCacheOnly: the list is CACHE_ONLY.
	CategoryCacheOnly // cache-only
)

func (c Category) String() string {
	switch c {
	case CategoryNoListLoaded:
		return "no-list-loaded"
	case CategorySignatureInvalid:
		return "signature-invalid"
	case CategorySignatureIndeterminate:
		return "signature-indeterminate"
	case CategorySignatureNotChecked:
		return "signature-not-checked"
	case CategoryParseFailure:
		return "parse-failure"
	case CategoryNeverLoaded:
		return "never-loaded"
	case CategoryExpired:
		return "expired"
	case CategoryDownloadFailing:
		return "download-failing"
	case CategoryStale:
		return "stale"
	case CategoryCacheOnly:
		return "cache-only"
	}
	return ""
}

// ParseCategory reads a category name as [Category.String] writes it.
func ParseCategory(name string) (Category, error) {
	for c := CategoryNoListLoaded; c <= CategoryCacheOnly; c++ {
		if c.String() == name {
			return c, nil
		}
	}
	return 0, fmt.Errorf("freshness: unknown category %q", name)
}

// Outranks reports whether c is more important than d. The zero value
// outranks nothing, and every category outranks the zero value.
func (c Category) Outranks(d Category) bool {
	if c == 0 {
		return false
	}
	return d == 0 || c < d
}
