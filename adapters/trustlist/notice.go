package trustlist

// A Notice records something [ParseWithNotices] read but could not carry
// into [trust.List], because the domain type has no field for it. The list
// is still returned; what to do with the affected entry is the caller's
// decision (see doc.go, "Critical extensions" and "Qualification
// criteria").
type Notice struct {
	Kind NoticeKind
	// Path locates the entry, e.g.
	// "TrustServiceProvider[2]/TSPService[0]/ServiceHistoryInstance[1]"
	// (indexes count from 0, in document order). "SchemeInformation" for
	// a scheme extension.
	Path   string
	Detail string
}

// NoticeKind classifies a [Notice].
type NoticeKind uint8

const (
	_ NoticeKind = iota
	// NoticeUnknownCriticalExtension: an Extension marked Critical="true"
	// holds an element this package does not understand. TS 119 612
	// §5.5.9 asks a relying party that does not understand a critical
	// service extension not to use the service as described; the domain
	// has no field to say so, hence the notice.
	NoticeUnknownCriticalExtension
	// NoticeCriteriaNotRepresented: a Qualifications CriteriaList holds
	// something [trust.Criteria] cannot carry: an otherCriteriaList entry
	// other than CertSubjectDNAttribute, ExtendedKeyUsage and
	// QcStatementSet (it is named in Criteria.Unknown, a criterion never
	// met), or a KeyUsageBit whose value is not an xsd:boolean (the bit is
	// left out of its KeyUsage criterion). The rest of the tree is kept
	// as read.
	NoticeCriteriaNotRepresented
)

func (k NoticeKind) String() string {
	switch k {
	case NoticeUnknownCriticalExtension:
		return "unknown-critical-extension"
	case NoticeCriteriaNotRepresented:
		return "criteria-not-represented"
	}
	return ""
}
