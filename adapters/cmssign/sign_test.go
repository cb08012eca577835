package cmssign_test

import (
	"bytes"
	"context"
	"crypto"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/cmssign"
	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestSignDetached: the CMS verifies over the content with the reader of
// the validator, names the signer by an ESS signing-certificate-v2, has
// no signing-time (PAdES baseline forbids it), and carries the
// time-stamp token it was given over the signature value's SHA-256.
func TestSignDetached(t *testing.T) {
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	content := []byte("the bytes of a byte range")
	for _, id := range []*pki.Identity{p.SignerRSA, p.SealCHRegulated} {
		t.Run(id.Name, func(t *testing.T) {
			is := is.New(t)
			var imprint []byte
			der, err := cmssign.SignDetached(context.Background(), content, cmssign.Signer{
				Certificate: id.Certificate, Chain: id.Chain(), Key: id.Key,
				Timestamp: func(_ context.Context, h crypto.Hash, digest []byte) ([]byte, error) {
					is.Equal(h, crypto.SHA256)
					imprint = digest
					return cades.TimestampToken(p, digest, pki.ReferenceTime)
				},
			})
			is.NoErr(err)
			sd, err := cms.Parse(der)
			is.NoErr(err)
			res, err := sd.Verify(cms.VerifyOptions{Detached: bytes.NewReader(content)})
			is.NoErr(err)
			is.Equal(len(res), 1)
			is.NoErr(res[0].Err())
			is.True(res[0].Certificate.Equal(id.Certificate))
			si := sd.SignerInfos[0]
			_, ok, _ := si.SignedAttrs.Single(cms.OIDAttrSigningTime)
			is.True(!ok) // no signing-time
			_, ok, _ = si.SignedAttrs.Single(cms.OIDAttrSigningCertificateV2)
			is.True(ok)
			_, ok, _ = si.UnsignedAttrs.Single(cms.OIDAttrTimeStampToken)
			is.True(ok)
			is.Equal(len(imprint), 32)
			is.Equal(len(sd.Certificates), len(id.Chain()))
		})
	}
}

// TestSignDetachedFails: a missing key or a failing time-stamping unit
// is an error that says so, and no CMS.
func TestSignDetachedFails(t *testing.T) {
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		s    cmssign.Signer
		want string
	}{
		{"no key", cmssign.Signer{Certificate: p.SignerRSA.Certificate}, "cmssign: a certificate and its key are required"},
		{"TSA down", cmssign.Signer{Certificate: p.SignerRSA.Certificate, Key: p.SignerRSA.Key,
			Timestamp: func(context.Context, crypto.Hash, []byte) ([]byte, error) {
				return nil, errors.New("connection refused")
			}},
			"cmssign: signature-time-stamp: connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			der, err := cmssign.SignDetached(context.Background(), []byte("x"), tt.s)
			is.True(der == nil)
			is.Equal(err.Error(), tt.want)
		})
	}
}
