// Package trustlist reads ETSI TS 119 612 trusted lists (the EU List of
// Trusted Lists, the member-state lists and the Swiss list; TSL versions 5
// and 6) into [trust.List] values, maps their URIs to the domain's enums,
// and answers the LOTL questions the trust-store refresh asks: which
// member lists to fetch ([MemberLists]) and which pivot LOTLs lead from the
// configured Official Journal keystore to the current signers ([Pivots],
// [PivotsUntil]).
//
// # Scope
//
//   - [Parse] and [ParseWithNotices]: bytes to [trust.List], with
//     encoding/xml into private structs (raw.go) and a conversion that
//     checks every value (convert.go). Failures wrap [ErrUnparseable].
//   - [ServiceTypeOf], [StatusOf]: the explicit vocabulary tables
//     (vocabulary.go), ETSI and Swiss namespaces, pre-eIDAS statuses
//     included. docs/decisions/0011-trusted-list-vocabulary.md is the same
//     table with its evidence.
//   - [Framework]: EU_EIDAS, CH_ZERTES or UNKNOWN from the list's territory.
//   - [MemberLists], [Pivots], [PivotsUntil]: pure functions over a parsed
//     LOTL.
//   - [ApplyMRA]: a third-country list read in the pointing party's terms
//     through the mutual recognition agreement its LOTL pointer carries
//     ([trust.Pointer].MRA, read by Parse).
//
// # Non-goals
//
//   - No signature check. A parsed list is untrusted until the caller has
//     verified its XAdES signature against the signers the LOTL pointer (or
//     the configuration, for the LOTL and the Swiss list) names.
//   - No certificate parsing: certificates come back as the DER found in
//     the list. Some real ones are refused by crypto/x509 (two DE list
//     signers in LOTL 248 have a negative RSA modulus); the trust store
//     decides.
//   - No I/O, no clock: no download, no cache, no "is this list current"
//     (the domain's freshness rules use IssueDate and NextUpdate).
//   - No XML schema validation: structure the domain does not read is
//     skipped, as EU DSS does for schema-invalid but parseable lists.
//   - No scheme or TSP addresses, legal notices, supply points or
//     TakenOverBy details, and no MRA equivalence history or agreement
//     attributes (version, MRADepth, legislation): the domain has no place
//     for them.
//
// # Decisions
//
// List kind. TSLType decides when it has a TS 119 612 §5.3.3 form
// (…listofthelists is a LOTL; …generic and CClist are TLs); only a list
// with no recognisable type is judged by content (pointers and no
// providers make a LOTL). Every TL points back to its LOTL, so content
// must not override a declared type.
//
// Dates. xsd:dateTime values are returned in UTC; a value without a zone
// is read as UTC. An absent NextUpdate and an empty one (the §5.3.15
// closed list) are both the zero time. A malformed date, integer or
// base64 value fails the whole list: a service whose start time cannot be
// read cannot be placed in time, and dropping it silently would change
// the anchors without a trace.
//
// Names. SchemeOperator, provider and service names take xml:lang "en",
// then "en-*", then the first name given.
//
// Critical extensions. Qualifications, AdditionalServiceInformation,
// ExpiredCertsRevocationInfo and TakenOverBy are understood (the last is
// informative and has no domain field). Any other element in an Extension
// marked Critical="true", at scheme, provider or service level, becomes a
// [NoticeUnknownCriticalExtension] from [ParseWithNotices]; the list still
// parses. TS 119 612 §5.5.9 expects a relying party not to use a service
// whose critical extension it does not understand; the domain has no field
// to carry that, so the caller must act on the notice (proposed domain
// field: Service.UnknownCriticalExtensions []string). No list of the
// corpus has one.
//
// Qualification criteria. A CriteriaList is a tree and is kept as one in
// [trust.Criteria]: KeyUsage (false bits included), PolicySet, nested
// lists, and the otherCriteriaList entries CertSubjectDNAttribute and
// ExtendedKeyUsage (TS 119 612 additional types) and QcStatementSet (MRA
// schema v2, with QcType and QcCClegislation). Any other otherCriteriaList
// entry is named in Criteria.Unknown and reported as a
// [NoticeCriteriaNotRepresented], as is a KeyUsageBit whose value is not
// a boolean (the bit is left out). Identifiers written as URNs
// (urn:oid:…) are reduced to the dotted OID, as EU DSS does.
//
// Mutual recognition. A LOTL pointer whose OtherInformation holds an MRA
// schema v2 MutualRecognitionAgreementInformation gets a [trust.MRA]: per
// TrustServiceEquivalenceInformation, the type, status and qualifier
// equivalences and the certificate content equivalences, whose two
// declarations are CriteriaList trees like a Qualifications one. An
// equivalence is enacted only when its status is exactly
// http://ec.europa.eu/tools/lotl/mra/enacted and its starting time reads.
// Nothing in the agreement fails the list: what it cannot hold or use
// (a malformed time, an unknown status, a TrustServiceEquivalenceHistory,
// which needs an end time the domain lacks, a one-sided equivalence, an
// unknown or repeated content context) is a [NoticeMRANotRepresented],
// resolved towards recognising less (an equivalence that cannot be placed
// in time is not enacted; history is dropped) or, where the agreement is
// ambiguous (several pointing-party types for one pointed type), towards
// the first value written. The rules ApplyMRA follows are in its doc.
//
// Framework, member lists and pivots: see the function docs and the
// decision document.
//
// # Errors and limits
//
// Every error from [Parse] wraps [ErrUnparseable] (the "parse failure" the
// service reports apart from download failures) and is a *[ParseError]
// locating the problem by element path or input line. Documents of
// another kind also wrap [ErrNotTrustedList]; documents over a limit of
// limits.go wrap [ErrLimit] and carry a *[LimitError]. The limits are
// enforced while tokens stream in, so an oversized document is refused
// before it is decoded into memory.
//
// # Performance
//
// encoding/xml's byte-at-a-time tokenizer takes about 70 % of the time;
// the conversion is cheap. On one core of the reference machine Parse
// reads 38-49 MB/s (BenchmarkParse): the 2023 EU snapshot of the corpus
// (LOTL and 30 member lists, 17.7 MB) in about 0.45 s, so the ~28 MB EU
// set in about 0.6-0.7 s. Going much faster needs a hand-written scanner or
// sharing one tokenisation with the signature check.
package trustlist
