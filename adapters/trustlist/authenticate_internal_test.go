package trustlist

import (
	"testing"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/domain/trust"
)

// TestCoverage: whether a signature covers the list is decided on the node
// each reference resolved to, not on the reference's URI.
func TestCoverage(t *testing.T) {
	t.Parallel()
	doc := etree.NewDocument()
	root := doc.CreateElement("TrustServiceStatusList")
	root.CreateAttr("Id", "BE-TL-ID")
	service := root.CreateElement("TSPService")
	nested := root.CreateElement("TrustServiceStatusList") // a genuine list moved inside
	enveloped := []string{xmldsig.TransformEnveloped, xmldsig.ExcC14N}
	props := xmldsig.Reference{URI: "#xades-id-1", Type: xmldsig.TypeSignedProperties, Element: etree.NewElement("SignedProperties")}
	tests := []struct {
		name string
		refs []xmldsig.Reference
		want trust.AuthReason
	}{
		{"whole document", []xmldsig.Reference{{URI: "", Document: true, Transforms: enveloped}, props}, 0},
		{"xpointer to the document", []xmldsig.Reference{{URI: "#xpointer(/)", Document: true, Transforms: enveloped}}, 0},
		{"root by Id", []xmldsig.Reference{{URI: "#BE-TL-ID", Element: root, Transforms: enveloped}, props}, 0},
		{"xpointer to the root", []xmldsig.Reference{{URI: "#xpointer(id('BE-TL-ID'))", Element: root, Transforms: enveloped}}, 0},
		{"whole document without the enveloped transform", []xmldsig.Reference{{URI: "", Document: true, Transforms: []string{xmldsig.ExcC14N}}}, trust.ReasonCoversPart},
		{"signed properties only", []xmldsig.Reference{props}, trust.ReasonCoversPart},
		{"a service", []xmldsig.Reference{{URI: "#svc", Element: service, Transforms: enveloped}, props}, trust.ReasonCoversPart},
		// The root's Id in the URI, resolved to a nested copy: what the
		// check on the URI's text used to accept.
		{"the root's Id resolved to a nested list", []xmldsig.Reference{{URI: "#BE-TL-ID", Element: nested, Transforms: enveloped}, props}, trust.ReasonCoversOtherElement},
	}
	for _, tt := range tests {
		if got := coverage(&xmldsig.Result{References: tt.refs}, doc.Root()); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
