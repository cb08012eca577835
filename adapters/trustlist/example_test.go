package trustlist_test

import (
	"fmt"
	"os"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

func ExampleParse() {
	data, err := os.ReadFile("testdata/tsl-ch-synthetic.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	l, err := trustlist.Parse(data)
	if err != nil {
		// errors.Is(err, trustlist.ErrUnparseable) holds: report a parse
		// failure, not a download failure.
		fmt.Println(err)
		return
	}
	fmt.Println(l.Territory, l.SequenceNumber, trustlist.Framework(l), l.NextUpdate.Format("2006-01-02"))
	for _, s := range l.Providers[0].Services {
		fmt.Println(s.Type == trust.TypeCAQC, s.Status == trust.StatusGranted, s.Name)
	}
	// Output:
	// CH 42 CH_ZERTES 2026-12-15
	// true true Synthetic Swiss Qualified CA
	// false true Synthetic Qualified Time Stamping
	// false false Synthetic OCSP
	// false false Synthetic Regulated CA
}

func ExamplePivotsUntil() {
	lotl := trust.List{SchemeInformationURIs: []string{
		"https://ec.europa.eu/tools/lotl/eu-lotl-pivot-341.xml",
		"https://ec.europa.eu/tools/lotl/eu-lotl-pivot-335.xml",
		"https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=uriserv:OJ.C_.2019.276.01.0001.01.ENG",
		"https://ec.europa.eu/tools/lotl/eu-lotl-legalnotice.html#en",
	}}
	// Newest first; walk them from the last one, starting from the
	// keystore of the configured Official Journal.
	for _, u := range trustlist.PivotsUntil(lotl, "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=uriserv:OJ.C_.2019.276.01.0001.01.ENG") {
		fmt.Println(u)
	}
	// Output:
	// https://ec.europa.eu/tools/lotl/eu-lotl-pivot-341.xml
	// https://ec.europa.eu/tools/lotl/eu-lotl-pivot-335.xml
}
