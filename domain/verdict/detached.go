package verdict

import "fmt"

// CodeDetachedPartNotSigned: a detached part supplied with the document
// is covered by no signature of it (its digest matched none), so nothing
// in the verdict speaks for it.
const CodeDetachedPartNotSigned = "DETACHED_PART_NOT_SIGNED"

// DetachedPartNotSigned is the warning that the detached part name is
// covered by no signature of the document. The summary has no
// document-level warnings: it goes on every signature.
func DetachedPartNotSigned(name string) Message {
	return Say(CodeDetachedPartNotSigned, "", fmt.Sprintf(
		"the detached part %q was supplied with the document, but no signature of it covers that part: nothing here says who signed it", name),
		QuotedParam("Part", name))
}
