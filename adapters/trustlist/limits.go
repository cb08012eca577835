package trustlist

import "github.com/svc-dss/dss/adapters/formats/xmldsig"

// Limits on the work one Parse call does. A trusted list is fetched from
// the network, so its size and every count in it are attacker-controlled
// until its signature has been checked, and the signature can only be
// checked after parsing. Each limit is far above what real lists need
// (the corpus maxima are given beside each one) and low enough that a
// hostile document cannot make Parse allocate without bound.
//
// Going over a limit returns a [*LimitError] wrapped in a [*ParseError];
// errors.Is(err, [ErrUnparseable]) and errors.Is(err, [ErrLimit]) are both
// true.
//
// The element, attribute and text limits also bound the tree a list is
// parsed into for its signature check ([DocumentLimits]). A tree costs
// far more than its markup (some 300 bytes an element, 500 an attribute:
// 63 MB of "<a/>" took 4 GiB of allocation as a tree), and a refresh
// parses four lists at once. At these limits a tree takes at most about
// 100 MiB of allocation (60 MiB of it live) before a list is refused, so
// four hostile lists at once stay under 400 MiB, besides their bytes.
const (
	// MaxInputBytes bounds the document size. The largest list in the
	// corpus is 2.4 MB (IT, 2023); the whole EU set is about 28 MB. A
	// list's bytes are held while it is parsed, four lists at a time.
	MaxInputBytes = 16 << 20

	// MaxDepth bounds element nesting. Trusted lists nest at most 21 deep
	// (the MRA LOTL); deeper documents are a recursion attack, not a list.
	MaxDepth = 64

	// MaxElements bounds the number of elements of any kind, so that a
	// document made of millions of tiny elements cannot expand into
	// gigabytes of decoded structs or tree. The largest list has 18 437.
	MaxElements = 200_000

	// MaxAttributes bounds the attributes of any kind, namespace
	// declarations included, over the whole list (6 181 at most).
	MaxAttributes = 100_000

	// MaxTextBytes bounds the text: character data, attribute values and
	// comments over the whole list (1.8 MB at most), and so the longest
	// run of text, which encoding/xml holds whole before returning it
	// (5 KB at most, a certificate).
	MaxTextBytes = 8 << 20

	// MaxPointers bounds OtherTSLPointer entries (the LOTL has about 45).
	MaxPointers = 1_000

	// MaxProviders bounds TrustServiceProvider entries (60 at most).
	MaxProviders = 2_000

	// MaxServices bounds TSPService entries over the whole list (451).
	MaxServices = 20_000

	// MaxHistoryEntries bounds ServiceHistoryInstance entries over the
	// whole list (606).
	MaxHistoryEntries = 50_000

	// MaxEquivalences bounds the MRA TrustServiceEquivalenceInformation
	// entries over the whole list (the MRA pilot LOTL has 1).
	MaxEquivalences = 1_000

	// MaxEquivalenceTypes bounds the MRA TrustServiceTSLType entries over
	// the whole list, history included (2, 4 with the history sample).
	// [ApplyMRA] compares every service and history entry with each of
	// them, so this and MaxServices + MaxHistoryEntries bound its work.
	MaxEquivalenceTypes = 1_000
)

// DocumentLimits returns the limits above as xmldsig.ParseDocumentLimits
// takes them, so that a list parsed into a tree for its signature check is
// refused while it is tokenised, as [Parse] would refuse it.
func DocumentLimits() xmldsig.Limits {
	return xmldsig.Limits{MaxElements: MaxElements, MaxDepth: MaxDepth, MaxAttributes: MaxAttributes, MaxTextBytes: MaxTextBytes}
}
