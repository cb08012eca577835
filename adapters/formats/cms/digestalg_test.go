package cms_test

import (
	"bytes"
	"crypto"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/fixtures/cmswrite"
)

// Without signed attributes the signature covers the content's digest
// under the signature algorithm's hash, which need not be the digest
// algorithm the SignerInfo names: Hashes asks for both, and Verify checks
// the signature with the one the signature algorithm names (mutation
// testing, docs/testing.md, found Hashes' second hash unchecked: every
// other test signs with one hash).
func TestNoSignedAttributesOtherDigestAlgorithm(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	s := signerFor(p.SignerRSA)
	s.Hash, s.NoSignedAttributes = crypto.SHA384, true
	der := mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{})
	// digestAlgorithm SHA-384 becomes SHA-256, in the SignedData and in
	// the SignerInfo; sha384WithRSAEncryption is another OID and stays.
	sha384 := []byte{0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02}
	sha256 := []byte{0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01}
	is := is.New(t)
	is.Equal(bytes.Count(der, sha384), 2)
	sd := mustParse(t, bytes.ReplaceAll(der, sha384, sha256))
	si := sd.SignerInfos[0]
	is.Equal(si.Hashes(), []crypto.Hash{crypto.SHA256, crypto.SHA384})
	is.Equal(sd.Hashes(), []crypto.Hash{crypto.SHA256, crypto.SHA384})
	results, err := sd.Verify(cms.VerifyOptions{})
	is.NoErr(err)
	is.NoErr(results[0].Err())
	is.True(results[0].Certificate.Equal(p.SignerRSA.Certificate))

	// With signed attributes only the digest algorithm is asked for.
	s.NoSignedAttributes = false
	sd = mustParse(t, mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{}))
	is.Equal(sd.SignerInfos[0].Hashes(), []crypto.Hash{crypto.SHA384})
}
