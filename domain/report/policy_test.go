package report_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/verdict"
)

// TestPolicyNamed: both reports name the validation policy of the
// summary, the detailed report by name and hex SHA-256, the ETSI
// report's ValidationConstraintsEvaluationReport by a URN of its name,
// its SHA-256 as a XAdES policy hash, and its name; without one, neither
// names any.
func TestPolicyNamed(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	v := validation(t, p, signature(p.SignerRSA, nil, time.Time{}))
	digest := sha256.Sum256([]byte("name: strict\n"))
	v.Summary.ValidationPolicy = &verdict.PolicyName{Name: "strict", SHA256: hex.EncodeToString(digest[:])}

	detailed, err := report.Detailed(v)
	is.NoErr(err)
	is.True(bytes.Contains(detailed, []byte(`<ValidationPolicy Name="strict" SHA256="`+hex.EncodeToString(digest[:])+`"></ValidationPolicy>`)))
	etsiVR, err := report.ETSI(v)
	is.NoErr(err)
	for _, want := range []string{
		`<ValidationConstraintsEvaluationReport>`,
		`<Identifier xmlns="http://uri.etsi.org/01903/v1.3.2#">` + report.PolicyURN + `strict</Identifier>`,
		`<DigestValue xmlns="http://www.w3.org/2000/09/xmldsig#">` + base64.StdEncoding.EncodeToString(digest[:]) + `</DigestValue>`,
		`<PolicyName>strict</PolicyName>`,
	} {
		is.True(bytes.Contains(etsiVR, []byte(want))) // the ETSI report names the policy
	}

	v.Summary.ValidationPolicy = nil
	detailed, err = report.Detailed(v)
	is.NoErr(err)
	is.True(!bytes.Contains(detailed, []byte(`<ValidationPolicy`)))
	etsiVR, err = report.ETSI(v)
	is.NoErr(err)
	is.True(!bytes.Contains(etsiVR, []byte(`<ValidationConstraintsEvaluationReport`)))
}
