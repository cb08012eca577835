package xmldsig_test

import (
	"crypto/x509"
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/fixtures/xmlsign"
)

// TestVerifyReportsResolvedElement: a verified reference names the node it
// resolved to, so callers decide what a signature covers on that node.
func TestVerifyReportsResolvedElement(t *testing.T) {
	is := is.New(t)
	s := testSigners(t)[0]
	for _, byID := range []bool{false, true} {
		signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{XAdES: true, SigningTime: signingTime, ReferenceRootByID: byID})
		is.NoErr(err)
		tree, err := xmldsig.ParseDocument(signed)
		is.NoErr(err)
		res, err := xmldsig.VerifyDocument(tree)
		is.NoErr(err)
		is.Equal(len(res.References), 2)
		doc, props := res.References[0], res.References[1]
		is.True(doc.Enveloped())
		if byID {
			is.Equal(doc.URI, "#TrustServiceStatusList")
			is.True(!doc.Document)
			is.True(doc.Element == tree.Root()) // the node itself, not a look-alike
		} else {
			is.Equal(doc.URI, "")
			is.True(doc.Document)
			is.True(doc.Element == nil)
		}
		is.True(!props.Enveloped())
		is.True(props.Element != nil && props.Element.Tag == "SignedProperties")
	}
}

// TestVerifyRefusesAmbiguousIDs: an ID value that two elements carry, in
// any attribute named Id, ID or id with or without a prefix, resolves to
// neither. These are the wrapping variants of a list that references its
// root by Id.
func TestVerifyRefusesAmbiguousIDs(t *testing.T) {
	s := testSigners(t)[0]
	signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{XAdES: true, SigningTime: signingTime, ReferenceRootByID: true})
	if err != nil {
		t.Fatal(err)
	}
	doc := string(signed)
	start := strings.Index(doc, "<TrustServiceStatusList")
	sigAt := strings.Index(doc, "<ds:Signature")
	end := strings.LastIndex(doc, "</TrustServiceStatusList>")
	genuine := doc[start:sigAt] + doc[strings.Index(doc, "</ds:Signature>")+len("</ds:Signature>"):end] + "</TrustServiceStatusList>"
	signature := doc[sigAt : strings.Index(doc, "</ds:Signature>")+len("</ds:Signature>")]
	// wrap builds a new root whose start tag carries attrs, holding the
	// genuine root without its signature, then the genuine signature.
	wrap := func(attrs string) string {
		return `<?xml version="1.0"?><TrustServiceStatusList xmlns="http://uri.etsi.org/02231/v2#" xmlns:ns3="http://uri.etsi.org/02231/v2/additionaltypes#" xmlns:tsl="http://uri.etsi.org/02231/v2#"` + attrs + `><SchemeInformation><TSLSequenceNumber>666</TSLSequenceNumber></SchemeInformation>` + genuine + signature + `</TrustServiceStatusList>`
	}
	tests := []struct {
		name string
		doc  string
		want error
	}{
		{"prefixed Id on a new root", wrap(` tsl:Id="TrustServiceStatusList"`), xmldsig.ErrDuplicateID},
		{"xml:Id on a new root", wrap(` xml:Id="TrustServiceStatusList"`), xmldsig.ErrDuplicateID},
		{"xml:id on a new root", wrap(` xml:id="TrustServiceStatusList"`), xmldsig.ErrDuplicateID},
		{"unprefixed Id on a new root", wrap(` Id="TrustServiceStatusList"`), xmldsig.ErrDuplicateID},
		{"ID on a new root", wrap(` ID="TrustServiceStatusList"`), xmldsig.ErrDuplicateID},
		{"id on a descendant", strings.Replace(doc, "<SchemeInformation>", `<SchemeInformation id="TrustServiceStatusList">`, 1), xmldsig.ErrDuplicateID},
		{"only a prefixed Id", strings.Replace(doc, ` Id="TrustServiceStatusList"`, ` xmlns:tsl="http://uri.etsi.org/02231/v2#" tsl:Id="TrustServiceStatusList"`, 1), xmldsig.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := xmldsig.Verify([]byte(tt.doc))
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify: %v, want %v", err, tt.want)
			}
			if xmldsig.IsTampered(err) {
				t.Errorf("an ambiguous reference is not proof of tampering: %v", err)
			}
		})
	}

	// The same element naming itself in two ways is one claim.
	t.Run("Id and xml:id on one element", func(t *testing.T) {
		signed, err := xmlsign.Sign([]byte(strings.Replace(testList, ` Id="TrustServiceStatusList"`, ` Id="TrustServiceStatusList" xml:id="TrustServiceStatusList"`, 1)), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{XAdES: true, SigningTime: signingTime, ReferenceRootByID: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := xmldsig.Verify(signed); err != nil {
			t.Fatal(err)
		}
	})
}
