package qualification

import (
	"crypto/x509"
	"slices"
	"strings"

	"github.com/svc-dss/dss/domain/verdict"
)

// Subject attributes naming a person (X.520; EN 319 412-2, 4.2.4).
const (
	oidGivenName = "2.5.4.42"
	oidSurname   = "2.5.4.4"
	oidPseudonym = "2.5.4.65"
)

// SignedBy names the signer of certificate c as a person reads it; nil
// for a nil certificate. The certificate names an organisation (a
// seal) when it says so, QcType eSeal or a legal-person semantics
// identifier, or when its subject is an organisation's (EN 319 412-3):
// organizationName with organizationIdentifier, and no givenName,
// surname or pseudonym. The organisation is then named by its common
// name, else its organizationName. A natural person is named by a
// pseudonym when the certificate gives one (EN 319 412-2, 4.2.4: the
// legal name is then not given), else by givenName and surname, else
// by the common name.
func SignedBy(c *x509.Certificate) *verdict.SignedBy {
	if c == nil {
		return nil
	}
	f := FactsOf(c)
	attr := func(oid string) string {
		var vals []string
		for _, atv := range c.Subject.Names {
			if s, ok := atv.Value.(string); ok && atv.Type.String() == oid && strings.TrimSpace(s) != "" {
				vals = append(vals, strings.TrimSpace(s))
			}
		}
		return strings.Join(vals, " ")
	}
	given, surname, pseudonym := attr(oidGivenName), attr(oidSurname), attr(oidPseudonym)
	org := strings.Join(c.Subject.Organization, ", ")
	s := &verdict.SignedBy{Kind: verdict.SignerPerson, Organization: org, OrganizationIdentifier: f.OrganizationIdentifier,
		Certificate: verdict.CertificateOf(c)}
	person := given != "" || surname != "" || pseudonym != ""
	declared := slices.Contains(f.QcTypes, oidQcTypeESeal) || slices.Contains(f.Semantics, oidSemanticsLegal) ||
		slices.Contains(f.Semantics, oidSemanticsEIDASLegal)
	if declared || !person && org != "" && f.OrganizationIdentifier != "" {
		s.Kind, s.Name = verdict.SignerOrganization, c.Subject.CommonName
		if s.Name == "" {
			s.Name = org
		}
		return s
	}
	switch {
	case pseudonym != "":
		s.Name, s.Pseudonym = pseudonym, true
	case given != "" || surname != "":
		s.Name = strings.TrimSpace(given + " " + surname)
	default:
		s.Name = c.Subject.CommonName
	}
	if s.Name == "" {
		// A subject with none of the naming attributes (an empty
		// subject, alternative names only) is named by what it has.
		s.Name = c.Subject.String()
	}
	return s
}
