package trustlist_test

import (
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

func TestFramework(t *testing.T) {
	tests := []struct {
		territory string
		want      trust.Framework
	}{
		{"CH", trust.CHZERTES},
		{" ch ", trust.CHZERTES},
		{"EU", trust.EUEIDAS},
		{"DE", trust.EUEIDAS},
		{"EL", trust.EUEIDAS}, // Greece as the LOTL writes it
		{"GR", trust.EUEIDAS},
		{"HR", trust.EUEIDAS},
		{"NO", trust.EUEIDAS}, // EEA
		{"IS", trust.EUEIDAS},
		{"LI", trust.EUEIDAS},
		{"UK", trust.Unknown}, // left eIDAS on 2021-01-01
		{"GB", trust.Unknown},
		{"ZZ", trust.Unknown}, // MRA third country
		{"PE", trust.Unknown},
		{"", trust.Unknown}, // never defaulted to EU_EIDAS
	}
	for _, tt := range tests {
		t.Run(tt.territory, func(t *testing.T) {
			is.New(t).Equal(trustlist.Framework(trust.List{Territory: tt.territory}), tt.want)
		})
	}
}
