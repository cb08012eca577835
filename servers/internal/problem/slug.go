package problem

import "strings"

// typePrefix begins the Type of a problem New made from a slug.
const typePrefix = "urn:svc-dss:problem:"

// Slug is the short name of p's kind: the slug New was given
// ("payload-too-large"), or for about:blank the status text in the same
// form ("not-found", "method-not-allowed"). Metrics count answers by it:
// a bounded set, unlike Detail.
func (p Problem) Slug() string {
	if s, ok := strings.CutPrefix(p.Type, typePrefix); ok {
		return s
	}
	return strings.ReplaceAll(strings.ToLower(p.Title), " ", "-")
}
