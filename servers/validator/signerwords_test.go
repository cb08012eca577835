package main

import (
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/domain/verdict"
)

// The result page names the signer as a person reads it: the name, a
// pseudonym marked, a seal with its organisation and identifier.
func TestSignerWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		signer *verdict.SignedBy
		want   string
	}{
		{nil, "Unknown: no signing certificate was identified"},
		{&verdict.SignedBy{Kind: verdict.SignerPerson, Name: "Maria Muster", Organization: "Acme AG"}, "Maria Muster"},
		{&verdict.SignedBy{Kind: verdict.SignerPerson, Name: "Ghostwriter 7", Pseudonym: true}, "Ghostwriter 7 (a pseudonym)"},
		{&verdict.SignedBy{Kind: verdict.SignerOrganization, Name: "Acme Invoices", Organization: "Acme AG", OrganizationIdentifier: "NTRCH-CHE-123.456.789"},
			"Acme Invoices, Acme AG (NTRCH-CHE-123.456.789): an organisation's seal"},
		{&verdict.SignedBy{Kind: verdict.SignerOrganization, Name: "Acme AG", Organization: "Acme AG", OrganizationIdentifier: "VATDE-123456789"},
			"Acme AG (VATDE-123456789): an organisation's seal"},
	}
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	w := words{newBase(cat, catalog.English, pathResult, "ui.result.title")}
	for _, tt := range tests {
		if got := w.signer(tt.signer); got != tt.want {
			t.Errorf("signer(%+v) = %q, want %q", tt.signer, got, tt.want)
		}
	}
	de := words{newBase(cat, catalog.German, pathResult, "ui.result.title")}
	is := is.New(t)
	is.Equal(de.signer(tests[2].signer), "Ghostwriter 7 (ein Pseudonym)")
	is.Equal(de.signer(tests[3].signer), "Acme Invoices, Acme AG (NTRCH-CHE-123.456.789): das Siegel einer Organisation")
}
