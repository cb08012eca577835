package trustlist

import (
	"strings"

	"github.com/svc-dss/dss/domain/trust"
)

const (
	// mimeTSL is the MimeType of a pointer to an XML trusted list
	// (TS 119 612 §5.3.13); the other value in use is application/pdf,
	// the human-readable copy.
	mimeTSL = "application/vnd.etsi.tsl+xml"
	// typeEUGeneric is the TSLType of an EU member-state trusted list.
	typeEUGeneric = "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric"
)

// MemberLists returns the LOTL's pointers to machine-readable trusted
// lists (MimeType application/vnd.etsi.tsl+xml) of member states (TSLType
// EUgeneric), and of third countries whose pointer carries an enacted
// mutual recognition agreement (the MRA pilot's "ZZlist"), which
// [ApplyMRA] maps onto eIDAS terms. It leaves out the PDF copies, the
// LOTL's pointer to itself (TSLType EUlistofthelists) and third-country
// pointers without an agreement. Order is the LOTL's. Each pointer carries the certificates allowed to sign the list
// it locates; the caller must check the downloaded list against them and
// against the pointer's territory.
//
// MemberLists does not check that lotl is a LOTL, nor download anything.
func MemberLists(lotl trust.List) []trust.Pointer {
	var out []trust.Pointer
	for _, p := range lotl.Pointers {
		if strings.EqualFold(p.MimeType, mimeTSL) && (p.TypeURI == typeEUGeneric || enacted(p.MRA)) {
			out = append(out, p)
		}
	}
	return out
}

// Pivots returns the pivot LOTL locations a LOTL announces in its
// SchemeInformationURI, in the LOTL's order: newest pivot first.
//
// The rule is EU DSS's (PivotSchemeInformationURI, after the draft ETSI
// TS 119 615): a SchemeInformationURI value is a pivot if it ends in
// ".xml". The Official Journal link that announces the LOTL signing
// certificates and the legal-notice pages (…/eu-lotl-legalnotice.html#en)
// do not end in ".xml" and so are never pivots.
//
// Two facts from the published pivots matter to the caller, who walks the
// chain oldest first to move trust from the configured Official Journal
// keystore to the current LOTL signers:
//
//   - a pivot lists its own location first (eu-lotl-pivot-300.xml starts
//     with itself, then 282), so drop the URL of the list being processed;
//   - a LOTL may list pivots of an older keystore after the Official
//     Journal link of a newer one; use [PivotsUntil] with the configured
//     Official Journal URL to keep only the pivots that lead to it.
func Pivots(lotl trust.List) []string {
	return PivotsUntil(lotl, "")
}

// PivotsUntil is [Pivots] stopped at the configured Official Journal URL
// ojURL, as EU DSS's LOTLParsingTask does: pivots listed after it belong
// to an earlier keystore and are not needed when ojURL's keystore is the
// configured one (the DSS pivot-test lists
// lotl_test_OJ_2_pivot_0{1,2}.xml name the OJ 2023 link between the two
// keystores' pivots). An empty ojURL, or one the LOTL does not list,
// returns every pivot.
func PivotsUntil(lotl trust.List, ojURL string) []string {
	ojURL = strings.TrimSpace(ojURL)
	var out []string
	for _, u := range lotl.SchemeInformationURIs {
		if strings.HasSuffix(u, ".xml") {
			out = append(out, u)
		}
		if ojURL != "" && u == ojURL {
			break
		}
	}
	return out
}

// enacted reports whether m has an enacted equivalence.
func enacted(m *trust.MRA) bool {
	if m == nil {
		return false
	}
	for _, e := range m.Equivalences {
		if e.Enacted {
			return true
		}
	}
	return false
}

// Names reports whether territory is a name the pointer p gives the list
// it leads to, so that a list read at p's location is the one expected
// there (TS 119 612 §5.3.13: the pointer's SchemeTerritory is the pointed
// list's). A third-country list recognised through an MRA may instead use
// the territory its pointer's TSLType names ("…/TSLType/ZZlist" for "ZZ":
// the EU's MRA pilot points with SchemeTerritory "XX" to the list of
// "ZZ"). "EU" never names a list a pointer leads to: a list that calls
// itself EU there would pass for a second LOTL. The comparison is exact.
func Names(p trust.Pointer, territory string) bool {
	switch {
	case territory == "" || territory == "EU":
		return false
	case territory == p.Territory:
		return true
	case p.MRA == nil:
		return false
	}
	i := strings.LastIndex(p.TypeURI, "/TSLType/")
	if i < 0 {
		return false
	}
	named, ok := strings.CutSuffix(p.TypeURI[i+len("/TSLType/"):], "list")
	return ok && len(named) == 2 && named == territory
}
