package trustlist

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
const (
	// MaxInputBytes bounds the document size. The largest list in the
	// corpus is 2.4 MB (IT, 2023); the whole EU set is about 28 MB.
	MaxInputBytes = 64 << 20

	// MaxDepth bounds element nesting. Trusted lists nest at most 21 deep
	// (the MRA LOTL); deeper documents are a recursion attack, not a list.
	MaxDepth = 64

	// MaxElements bounds the number of elements of any kind, so that a
	// document made of millions of tiny elements cannot expand into
	// gigabytes of decoded structs. The largest list has 18 437.
	MaxElements = 1_000_000

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
