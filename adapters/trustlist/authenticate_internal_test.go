package trustlist

import (
	"testing"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

func TestCoversDocument(t *testing.T) {
	t.Parallel()
	doc := etree.NewDocument()
	root := doc.CreateElement("TrustServiceStatusList")
	root.CreateAttr("Id", "BE-TL-ID")
	props := xmldsig.Reference{URI: "#xades-id-1", Type: "http://uri.etsi.org/01903#SignedProperties"}
	tests := []struct {
		name string
		refs []xmldsig.Reference
		want bool
	}{
		{"whole document", []xmldsig.Reference{{URI: ""}, props}, true},
		{"root by Id", []xmldsig.Reference{{URI: "#BE-TL-ID"}, props}, true},
		{"xpointer to the document", []xmldsig.Reference{{URI: "#xpointer(/)"}}, true},
		{"xpointer to the root", []xmldsig.Reference{{URI: "#xpointer(id('BE-TL-ID'))"}}, true},
		{"signed properties only", []xmldsig.Reference{props}, false},
		{"another element", []xmldsig.Reference{{URI: "#some-service"}, props}, false},
	}
	for _, tt := range tests {
		if got := coversDocument(&xmldsig.Result{References: tt.refs}, doc.Root()); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
