package trustlist_test

import (
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/trustlist"
)

// BenchmarkParse parses sets of corpus lists once per iteration; MB/s is
// over the whole set and MB/op is its size.
//
//   - corpus: every parseable list of TRUST.tsv (about 62 MB, with many
//     copies of the same LOTL);
//   - eu-2023: the DSS cookbook snapshot, LOTL seq 332 and the 30 member
//     lists it points to (DE missing), about 18 MB: the closest thing in
//     the corpus to one refresh of the EU set.
func BenchmarkParse(b *testing.B) {
	rows := readTSV(b)
	sets := map[string][][]byte{}
	for _, row := range rows {
		if row.parse != "OK" {
			continue
		}
		d := readCorpus(b, row.path)
		sets["corpus"] = append(sets["corpus"], d)
		if strings.HasPrefix(row.path, "dss/cookbook-cache/") {
			sets["eu-2023"] = append(sets["eu-2023"], d)
		}
	}
	for _, name := range []string{"eu-2023", "corpus"} {
		docs := sets[name]
		total := 0
		for _, d := range docs {
			total += len(d)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			b.ReportMetric(float64(total)/1e6, "MB/op")
			for b.Loop() {
				for _, d := range docs {
					if _, err := trustlist.Parse(d); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
