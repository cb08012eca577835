package main

import (
	"bytes"
	"context"
	"crypto"
	"crypto/x509"
	"testing"
	"time"

	"github.com/miekg/pkcs11"

	"github.com/svc-dss/dss/adapters/cmssign"
	"github.com/svc-dss/dss/adapters/seal"
	"github.com/svc-dss/dss/adapters/signclient"
	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// BenchmarkSignClient measures the reference proxy client (signproxy sign's
// adapters/signclient under adapters/seal and adapters/cmssign) against a
// signer set up as the development mode sets it up (fixtures/signsetup),
// one document at a time: a detached CAdES-B of a 4 KiB file and a
// PAdES-B of a one-page PDF, each with its token, the HTTP round trip,
// the signature's check against the certificate and the CMS around it.
// Beside it, raw C_Sign on the same SoftHSM2 key, one at a time.
// Reported: signatures per second and the p50 and p99 of one document.
func BenchmarkSignClient(b *testing.B) {
	w := newSignWorld(b)
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		b.Fatal(err)
	}
	pdf := fixture.New(1).Bytes()
	text := bytes.Repeat([]byte("a line of a document that stays with the proxy\n"), 4096/48)
	d := digest(crypto.SHA256, "benchmark")
	for i, c := range []struct {
		name, label, alg string
		ckm              uint
	}{
		{"RSA-2048", "sign-rsa", signclient.RSAPKCS1v15, pkcs11.CKM_RSA_PKCS},
		{"P-256", "sign-p256", signclient.ECDSA, pkcs11.CKM_ECDSA},
	} {
		cert, err := p.IssueLike(p.SignerCHQES, c.label, int64(0x7200+i), w.pubs[c.label])
		if err != nil {
			b.Fatal(err)
		}
		chain := []*x509.Certificate{cert, p.IntermediateCH.Certificate}
		client := &signclient.Client{URL: w.url, Tenant: w.a.tenant, Module: w.a.module, KID: w.a.kid, ClientKey: w.a.key}
		key, err := client.Key(context.Background(), c.label, cert, c.alg)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/raw C_Sign", func(b *testing.B) {
			data := d
			if c.ckm == pkcs11.CKM_RSA_PKCS {
				data = digestInfoSHA256(b, d)
			}
			priv := w.pairs[c.label].Private
			clients(b, 1, func(int) func() error {
				ctx := w.tokA.Ctx()
				s, err := ctx.OpenSession(w.tokA.Slot(), pkcs11.CKF_SERIAL_SESSION)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { ctx.CloseSession(s) })
				m := []*pkcs11.Mechanism{pkcs11.NewMechanism(c.ckm, nil)}
				return func() error {
					if err := ctx.SignInit(s, m, priv); err != nil {
						return err
					}
					_, err := ctx.Sign(s, data)
					return err
				}
			}, 1, true)
		})
		b.Run(c.name+"/client CAdES-B", func(b *testing.B) {
			signer := cmssign.Signer{Certificate: cert, Chain: chain[1:], Key: key, SigningTime: time.Now()}
			if _, err := cmssign.SignDetached(context.Background(), text, signer); err != nil { // warm
				b.Fatal(err)
			}
			b.ResetTimer()
			clients(b, 1, func(int) func() error {
				return func() error {
					_, err := cmssign.SignDetached(context.Background(), text, signer)
					return err
				}
			}, 1, true)
		})
		b.Run(c.name+"/client PAdES-B", func(b *testing.B) {
			s, err := seal.New(key, chain, nil, time.Now, seal.WithFieldName("Signature"))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.PDF(context.Background(), pdf); err != nil { // warm
				b.Fatal(err)
			}
			b.ResetTimer()
			clients(b, 1, func(int) func() error {
				return func() error {
					_, err := s.PDF(context.Background(), pdf)
					return err
				}
			}, 1, true)
		})
	}
}
