package trustlist

// A Notice records something [ParseWithNotices] read but could not carry
// into [trust.List] as written: the domain type has no field for it, or
// (in MRA information, which need not fail the list) the value is
// malformed, ambiguous or outside the known vocabulary. The list is still
// returned; what to do with the affected entry is the caller's decision
// (see doc.go, "Critical extensions", "Qualification criteria" and
// "Mutual recognition").
type Notice struct {
	Kind NoticeKind
	// Path locates the entry, e.g.
	// "TrustServiceProvider[2]/TSPService[0]/ServiceHistoryInstance[1]"
	// (indexes count from 0, in document order). "SchemeInformation" for
	// a scheme extension; "SchemeInformation/PointersToOtherTSL/
	// OtherTSLPointer[i]/…" inside a pointer's MRA information.
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
	// NoticeMRANotRepresented: a pointer's mutual recognition agreement
	// information holds something [trust.MRA] cannot carry, or that
	// [ApplyMRA] cannot act on as written. The rest of the agreement is
	// kept. The cases, each named in the detail:
	//
	//   - a TrustServiceEquivalenceStatusStartingTime that is absent or
	//     not an xsd:dateTime, or a TrustServiceEquivalenceStatus other
	//     than enacted or repealed: the equivalence is kept, not enacted;
	//   - a TrustServiceEquivalenceHistory: dropped, as the domain has no
	//     end time for an equivalence (only the current one is kept, which
	//     can only narrow what is recognised);
	//   - a type, status or qualifier equivalence missing a side, or a
	//     TrustServiceTSLType without ServiceTypeIdentifier: dropped;
	//   - several pointing-party types or statuses for one entry: the
	//     first is used;
	//   - a certificate content context other than QcCompliance, QcType
	//     and QcQSCD, or one given twice: kept as read;
	//   - a second MutualRecognitionAgreementInformation on one pointer:
	//     the first is kept.
	//
	// Criteria a content declaration's tree cannot hold are reported as a
	// [NoticeCriteriaNotRepresented] with the declaration's path.
	NoticeMRANotRepresented
)

func (k NoticeKind) String() string {
	switch k {
	case NoticeUnknownCriticalExtension:
		return "unknown-critical-extension"
	case NoticeCriteriaNotRepresented:
		return "criteria-not-represented"
	case NoticeMRANotRepresented:
		return "mra-not-represented"
	}
	return ""
}
