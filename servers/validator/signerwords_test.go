package main

import (
	"testing"

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
	for _, tt := range tests {
		if got := signerWords(tt.signer); got != tt.want {
			t.Errorf("signerWords(%+v) = %q, want %q", tt.signer, got, tt.want)
		}
	}
}
