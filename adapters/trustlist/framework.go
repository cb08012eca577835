package trustlist

import (
	"strings"

	"github.com/svc-dss/dss/domain/trust"
)

// eidasTerritories are the SchemeTerritory codes whose lists are under
// eIDAS: "EU" for the LOTL, the 27 member states as the EU LOTL spells
// them (Greece is "EL"; "GR" is accepted too), and the EEA states
// Iceland, Liechtenstein and Norway, which apply eIDAS through the EEA
// agreement and are in the LOTL.
//
// The United Kingdom ("UK", "GB") is not: it left eIDAS on 1 January 2021.
// The EU LOTL still points to a UK list published by the Commission, but
// that list names no granted qualified service (its services are
// "recognised/deprecated at national level" or withdrawn), so UK anchors
// are UNKNOWN. Validating a pre-2021 UK qualified signature as EU_EIDAS
// would need a date-dependent rule, which this static mapping does not
// attempt.
var eidasTerritories = map[string]bool{
	"EU": true,
	"AT": true, "BE": true, "BG": true, "CY": true, "CZ": true, "DE": true,
	"DK": true, "EE": true, "EL": true, "GR": true, "ES": true, "FI": true,
	"FR": true, "HR": true, "HU": true, "IE": true, "IT": true, "LT": true,
	"LU": true, "LV": true, "MT": true, "NL": true, "PL": true, "PT": true,
	"RO": true, "SE": true, "SI": true, "SK": true,
	"IS": true, "LI": true, "NO": true,
}

// Framework returns the legal framework of the anchors a list yields,
// read from its SchemeTerritory (validation-service.md §2 rule 1:
// "trustFramework is read from the country/scheme of the trusted list that
// ended the certificate path"): CH_ZERTES for "CH", EU_EIDAS for the EU
// LOTL and the EU/EEA member-state lists, UNKNOWN for anything else,
// including third-country (MRA) lists and a list without a territory.
// Rule 2, "never defaulted to EU_EIDAS", is why unknown territories are
// UNKNOWN and not EU.
//
// Framework trusts the territory as written: the caller must only ask for
// lists it reached through an authenticated path (the LOTL's pointer for
// that territory, or the configured Swiss list), since anyone can write
// "CH" into a document.
func Framework(l trust.List) trust.Framework {
	t := strings.ToUpper(strings.TrimSpace(l.Territory))
	switch {
	case t == "CH":
		return trust.CHZERTES
	case eidasTerritories[t]:
		return trust.EUEIDAS
	}
	return trust.Unknown
}
