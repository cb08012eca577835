package qualification

import (
	"crypto/x509"
	"slices"

	"github.com/svc-dss/dss/domain/trust"
)

// keyUsageBits are the KeyUsageBit names of ETSI TS 119 612 (RFC 5280
// names).
var keyUsageBits = map[string]x509.KeyUsage{
	"digitalSignature":  x509.KeyUsageDigitalSignature,
	"nonRepudiation":    x509.KeyUsageContentCommitment,
	"contentCommitment": x509.KeyUsageContentCommitment,
	"keyEncipherment":   x509.KeyUsageKeyEncipherment,
	"dataEncipherment":  x509.KeyUsageDataEncipherment,
	"keyAgreement":      x509.KeyUsageKeyAgreement,
	"keyCertSign":       x509.KeyUsageCertSign,
	"crlSign":           x509.KeyUsageCRLSign,
	"encipherOnly":      x509.KeyUsageEncipherOnly,
	"decipherOnly":      x509.KeyUsageDecipherOnly,
}

// Matches reports whether a certificate with facts f meets the criteria
// list c (ETSI TS 119 612, 5.5.9.2.2): assert "all", "atLeastOne" or
// "none" over its criteria. An unknown bit name or criterion is not met.
func Matches(c trust.Criteria, f Facts) bool {
	return matches(c, f, 0)
}

func matches(c trust.Criteria, f Facts, depth int) bool {
	if depth > 16 {
		return false
	}
	var met []bool
	for _, ku := range c.KeyUsage {
		met = append(met, keyUsageMet(ku, f.KeyUsage))
	}
	for _, set := range c.PolicySets {
		met = append(met, containsAll(f.Policies, set))
	}
	for _, n := range c.Nested {
		met = append(met, matches(n, f, depth+1))
	}
	for _, set := range c.ExtendedKeyUsage {
		met = append(met, containsAll(f.EKU, set))
	}
	for _, set := range c.SubjectAttributes {
		met = append(met, containsAll(f.SubjectAttributes, set))
	}
	for _, set := range c.QcStatements {
		met = append(met, qcStatementsMet(set, f))
	}
	for range c.Unknown {
		met = append(met, false)
	}
	switch c.Assert {
	case "atLeastOne":
		return slices.Contains(met, true)
	case "none":
		return !slices.Contains(met, true)
	default: // "all", and a missing assert
		return !slices.Contains(met, false)
	}
}

func keyUsageMet(bits []trust.KeyUsageBit, ku x509.KeyUsage) bool {
	for _, b := range bits {
		bit, known := keyUsageBits[b.Name]
		if !known || (ku&bit != 0) != b.Value {
			return false
		}
	}
	return true
}

func qcStatementsMet(set []trust.QcStatementCriterion, f Facts) bool {
	for _, q := range set {
		if !f.has(q.ID) || !containsAll(f.QcTypes, q.Types) || !containsAll(f.Legislation, q.Legislation) {
			return false
		}
	}
	return true
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// captured is the union of the qualifiers of the qualifications whose
// criteria the certificate meets (ETSI TS 119 615, 4.3.4.3).
func captured(qs []trust.Qualification, f Facts) []string {
	var out []string
	for _, q := range qs {
		if !Matches(q.Criteria, f) {
			continue
		}
		for _, u := range q.Qualifiers {
			if !slices.Contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return out
}
