package cms_test

import (
	"sync"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/fixtures/cmswrite"
	"github.com/svc-dss/dss/fixtures/pki"
)

// signingTime is the fixed signing time of test signatures.
var signingTime = time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)

var (
	pkiOnce sync.Once
	pkiVal  *pki.PKI
	pkiErr  error
)

// testPKI returns the fixture PKI, built once per test binary: deriving its
// keys takes most of a second.
func testPKI(tb testing.TB) *pki.PKI {
	tb.Helper()
	pkiOnce.Do(func() { pkiVal, pkiErr = pki.New("http://pki.invalid") })
	if pkiErr != nil {
		tb.Fatal(pkiErr)
	}
	return pkiVal
}

// signerFor is a Signer for a fixture identity at signingTime.
func signerFor(id *pki.Identity) cmswrite.Signer {
	return cmswrite.Signer{Certificate: id.Certificate, Key: id.Key, SigningTime: signingTime}
}

// mustSign signs content or fails tb.
func mustSign(tb testing.TB, content []byte, signers []cmswrite.Signer, opts cmswrite.SignOptions) []byte {
	tb.Helper()
	der, err := cmswrite.Sign(content, signers, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return der
}

// mustParse parses der or fails tb.
func mustParse(tb testing.TB, der []byte) *cms.SignedData {
	tb.Helper()
	sd, err := cms.Parse(der)
	if err != nil {
		tb.Fatal(err)
	}
	return sd
}

// always converts every element.
func always(int) bool { return true }
