package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// The forgeries below are what an attacker without any key of the
// fixture PKI can make: certificates that copy a genuine one field for
// field (subject, serial number, extensions, the authority key
// identifier naming the genuine issuer's key) but carry the attacker's
// key and the attacker's signature. Only the verification of each
// certificate's signature along the path tells them from the genuine
// ones: a validator that skips it for any link reports the forged
// signer as it reports the genuine one (the OCSP responder answers
// "good" for the genuine serial number).

// attackerKeys are two RSA keys outside the fixture PKI, generated once
// per test binary: RSA like the fixture CAs, so that a forged link fails
// on its signature, not on a mismatch of key types.
var attackerKeys = sync.OnceValues(func() ([2]*rsa.PrivateKey, error) {
	var keys [2]*rsa.PrivateKey
	for i := range keys {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			return keys, err
		}
		keys[i] = k
	}
	return keys, nil
})

// twin returns a copy of genuine for key, naming issuer as its issuer and
// signed with signer, the private key of the certificate named issuer as
// the attacker holds it. Every extension of genuine is copied raw, the
// authority key identifier included, but the subject key identifier,
// which names genuine's key.
func twin(t *testing.T, genuine, issuer *x509.Certificate, key, signer *rsa.PrivateKey) *x509.Certificate {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber:          genuine.SerialNumber,
		RawSubject:            genuine.RawSubject,
		NotBefore:             genuine.NotBefore,
		NotAfter:              genuine.NotAfter,
		SignatureAlgorithm:    x509.SHA256WithRSA,
		BasicConstraintsValid: genuine.BasicConstraintsValid,
		IsCA:                  genuine.IsCA,
	}
	for _, e := range genuine.Extensions {
		if !e.Id.Equal([]int{2, 5, 29, 14}) { // subjectKeyIdentifier
			tmpl.ExtraExtensions = append(tmpl.ExtraExtensions, e)
		}
	}
	// crypto/x509 takes the issuer's name and key identifier from the
	// parent and wants its public key to match signer: a copy of the
	// genuine issuer with the attacker's key.
	parent := *issuer
	parent.PublicKey = signer.Public()
	der, err := x509.CreateCertificate(rand.Reader, tmpl, &parent, key.Public(), signer)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.RawIssuer, issuer.RawSubject) || !slices.Equal(c.AuthorityKeyId, genuine.AuthorityKeyId) {
		t.Fatal("the forged certificate does not name the genuine issuer")
	}
	return c
}

// A forgery is a signer the attacker made, with the link of the path it
// forges.
type forgery struct {
	name   string
	signer *pki.Identity
}

// forgeries returns the two forged signers of genuine (issued by
// p.Intermediate):
//   - "forged leaf": genuine's twin with the attacker's key, signed by the
//     attacker's key in the genuine intermediate's name. The link from
//     the leaf to the intermediate does not verify.
//   - "forged intermediate": the intermediate's twin with the attacker's
//     CA key, signed by it in the root's name, which signed genuine's
//     twin for real. The leaf's link verifies (to the forged CA, which
//     the signature embeds); the link from the CA to the root does not.
func forgeries(t *testing.T, p *pki.PKI, genuine *pki.Identity) []forgery {
	t.Helper()
	if genuine.Issuer != p.Intermediate {
		t.Fatalf("%s is not issued by the intermediate", genuine.Name)
	}
	keys, err := attackerKeys()
	if err != nil {
		t.Fatal(err)
	}
	leafKey, caKey := keys[0], keys[1]
	identity := func(name string, c *x509.Certificate, key *rsa.PrivateKey, issuer *pki.Identity) *pki.Identity {
		return &pki.Identity{Name: name, Certificate: c, DER: c.Raw, Key: key, Issuer: issuer}
	}
	leaf := identity("forged-leaf", twin(t, genuine.Certificate, p.Intermediate.Certificate, leafKey, leafKey), leafKey, p.Intermediate)
	caCert := twin(t, p.Intermediate.Certificate, p.Root.Certificate, caKey, caKey)
	ca := identity("forged-ca", caCert, caKey, p.Root)
	underCA := identity("forged-under-ca", twin(t, genuine.Certificate, caCert, leafKey, caKey), leafKey, ca)
	return []forgery{{"forged leaf", leaf}, {"forged intermediate", underCA}}
}

// forgedDocuments signs content as genuine and as each forgery of it, in
// CAdES-B and PAdES-B: the cases of the tests below, the genuine ones
// first, which must pass.
func forgedDocuments(t *testing.T, p *pki.PKI, genuine *pki.Identity, signedAt time.Time) []forgedCase {
	t.Helper()
	signers := append([]forgery{{"genuine", genuine}}, forgeries(t, p, genuine)...)
	var out []forgedCase
	for _, s := range signers {
		sig, err := cades.Sign([]byte("contract text, signed"), cades.Options{PKI: p, Signer: s.signer, Level: cades.B, SigningTime: signedAt})
		if err != nil {
			t.Fatal(err)
		}
		d := pades.New(1)
		if err := d.Sign(pades.Options{PKI: p, Signer: s.signer, Level: cades.B, SigningTime: signedAt}); err != nil {
			t.Fatal(err)
		}
		out = append(out,
			forgedCase{"CAdES " + s.name, "contract.p7m", sig, "CAdES_BASELINE_B", s.name == "genuine"},
			forgedCase{"PAdES " + s.name, "contract.pdf", d.Bytes(), "PAdES_BASELINE_B", s.name == "genuine"})
	}
	return out
}

type forgedCase struct {
	name, file string
	data       []byte
	format     string
	genuine    bool
}

// expectForgery checks the summary of a forged case: INDETERMINATE /
// NO_CERTIFICATE_CHAIN_FOUND, as for a signer no trust anchor issued (the
// forged link is no link); the genuine signer passes.
func expectForgery(t *testing.T, tc forgedCase, sum verdict.ValidationSummary) {
	t.Helper()
	is := is.NewRelaxed(t)
	if len(sum.Signatures) != 1 {
		t.Fatalf("%d signatures, want 1", len(sum.Signatures))
	}
	r := sum.Signatures[0]
	sub := ""
	if r.SubIndication != nil {
		sub = r.SubIndication.String()
	}
	is.Equal(r.SignatureFormat, tc.format)
	if tc.genuine {
		is.Equal(r.Indication.String()+"/"+sub, "TOTAL_PASSED/")
		return
	}
	is.Equal(r.Indication.String()+"/"+sub, "INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND") // a forged link is no link
	is.True(!sum.Valid)
}

// TestForgedIssuerAPI posts signatures whose signer names a trusted CA
// but was certified by the attacker (see forgeries) to POST
// /api/validate of a validator trusting the fixture lists.
func TestForgedIssuerAPI(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t)
	signedAt := time.Now().Add(-time.Hour).Truncate(time.Second)
	for _, tc := range forgedDocuments(t, srv.PKI, srv.PKI.SignerRSAQC, signedAt) {
		t.Run(tc.name, func(t *testing.T) {
			res, body := post(t, s.URL, map[string][]byte{"file": tc.data})
			if res.StatusCode != 200 {
				t.Fatalf("status %d: %s", res.StatusCode, body)
			}
			var sum verdict.ValidationSummary
			if err := json.Unmarshal(body, &sum); err != nil {
				t.Fatal(err)
			}
			expectForgery(t, tc, sum)
		})
	}
}

// TestForgedIssuerCommand runs `validate` on the same forgeries with the
// fixture root as --trust-anchor, online (the genuine intermediate can
// be fetched by AIA, and the OCSP responder answers) and --offline.
func TestForgedIssuerCommand(t *testing.T) {
	t.Parallel()
	srv := pki.Start(t)
	srv.SetClock(func() time.Time { return pki.ReferenceTime })
	dir := t.TempDir()
	root := write(t, dir, "root.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.PKI.Root.Certificate.Raw}))
	env := append(offline(t), "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false") // the fixture PKI is on 127.0.0.1
	at := "--at=" + pki.ReferenceTime.Format(time.RFC3339)
	for _, tc := range forgedDocuments(t, srv.PKI, srv.PKI.SignerRSA, pki.ReferenceTime.Add(-24*time.Hour)) {
		for _, mode := range []string{"online", "offline"} {
			if tc.genuine && mode == "offline" {
				continue // a B-level signature needs fetched revocation data
			}
			t.Run(tc.name+" "+mode, func(t *testing.T) {
				t.Parallel()
				args := []string{"validate", write(t, t.TempDir(), tc.file, tc.data), at, "--trust-anchor", root}
				if mode == "offline" {
					args = append(args, "--offline")
				}
				code, out, logs := command(t, env, args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, logs)
				}
				var sum verdict.ValidationSummary
				if err := json.Unmarshal([]byte(out), &sum); err != nil {
					t.Fatal(err)
				}
				expectForgery(t, tc, sum)
			})
		}
	}
}
