package pades_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/cades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/ports"
)

// rawDSS appends an update that adds a /DSS holding exactly certs, ocsps
// and crls (DER values) to the catalog: a store no AddDSS writes, such as
// one with the signer's data but not its CA's. It is a raw update, so the
// test's last.
func rawDSS(t *testing.T, d *fixture.Document, certs, ocsps, crls [][]byte) {
	t.Helper()
	catalog := d.Objects().Catalog
	body, err := d.Body(catalog)
	if err != nil {
		t.Fatal(err)
	}
	objs := map[int]string{}
	array := func(ders [][]byte) string {
		var refs []string
		for _, der := range ders {
			n := d.Alloc()
			objs[n] = fixture.Stream("", string(der))
			refs = append(refs, fixture.Ref(n))
		}
		return "[" + strings.Join(refs, " ") + "]"
	}
	store := d.Alloc()
	objs[store] = fmt.Sprintf("<< /Type /DSS /Certs %s /OCSPs %s /CRLs %s >>", array(certs), array(ocsps), array(crls))
	objs[catalog] = strings.TrimSuffix(body, " >>") + " /DSS " + fixture.Ref(store) + " >>"
	d.Update(objs, 0)
}

// The level is read from the document alone (issue 17): the same bytes
// have the same level whatever certificates the validator passes in
// ports.Document.Certificates (its trust anchors, used only to find
// signers). A store with data about the signer makes LT; whether it
// covers the signer's CA is the process's question
// (etsi: LEVEL_NOT_SUPPORTED_BY_EVIDENCE), not the reader's.
func TestLevelWhateverCertificatesAreKnown(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	at := signedAt.Add(time.Hour)
	sign := func(t *testing.T, d *fixture.Document, level cades.Level) {
		t.Helper()
		must(t, d.Sign(fixture.Options{PKI: p, Signer: p.SignerRSA, Level: level, SigningTime: signedAt}))
	}
	ocspOf := func(t *testing.T, id *pki.Identity) []byte {
		t.Helper()
		der, err := cades.OCSPResponse(p, id, at)
		must(t, err)
		return der
	}
	crlOf := func(t *testing.T, ca *pki.Identity) []byte {
		t.Helper()
		der, err := p.CRL(ca, at)
		must(t, err)
		return der
	}
	chain := [][]byte{p.SignerRSA.DER, p.Intermediate.DER, p.Root.DER, p.OCSPResponder.DER}
	tests := []struct {
		name  string
		build func(t *testing.T, d *fixture.Document)
		want  string
	}{
		{"AddDSS: data for the whole chain", func(t *testing.T, d *fixture.Document) {
			sign(t, d, cades.T)
			must(t, d.AddDSS(fixture.DSSOptions{PKI: p, At: at}))
		}, "PAdES_BASELINE_LT"},
		{"AddDSS, then a document time-stamp", func(t *testing.T, d *fixture.Document) {
			sign(t, d, cades.T)
			must(t, d.AddDSS(fixture.DSSOptions{PKI: p, At: at}))
			must(t, d.AddDocumentTimestamp(fixture.TimestampOptions{PKI: p, At: at.Add(time.Hour)}))
		}, "PAdES_BASELINE_LTA"},
		{"the OCSP responses of the signer and the TSA, none for their CA", func(t *testing.T, d *fixture.Document) {
			sign(t, d, cades.T)
			rawDSS(t, d, chain, [][]byte{ocspOf(t, p.SignerRSA), ocspOf(t, p.TSA)}, nil)
		}, "PAdES_BASELINE_LT"},
		// DSS asks revocation data of the TSAs too (pades-010, -031).
		{"the signer's OCSP response, none for the TSA", func(t *testing.T, d *fixture.Document) {
			sign(t, d, cades.T)
			rawDSS(t, d, chain, [][]byte{ocspOf(t, p.SignerRSA)}, nil)
		}, "PAdES_BASELINE_T"},
		{"T by a document time-stamp, the signer's OCSP response, none for the TSA", func(t *testing.T, d *fixture.Document) {
			sign(t, d, cades.B)
			must(t, d.AddDocumentTimestamp(fixture.TimestampOptions{PKI: p, At: at}))
			rawDSS(t, d, chain, [][]byte{ocspOf(t, p.SignerRSA)}, nil)
		}, "PAdES_BASELINE_T"},
		{"T by a document time-stamp, then the signer's CA's CRL", func(t *testing.T, d *fixture.Document) {
			sign(t, d, cades.B)
			must(t, d.AddDocumentTimestamp(fixture.TimestampOptions{PKI: p, At: at}))
			rawDSS(t, d, chain, nil, [][]byte{crlOf(t, p.Intermediate)})
		}, "PAdES_BASELINE_LT"},
		{"the CA's data only (the root's CRL): none about the signer", func(t *testing.T, d *fixture.Document) {
			sign(t, d, cades.T)
			rawDSS(t, d, chain, nil, [][]byte{crlOf(t, p.Root)})
		}, "PAdES_BASELINE_T"},
		{"another signer's OCSP response only", func(t *testing.T, d *fixture.Document) {
			sign(t, d, cades.T)
			rawDSS(t, d, chain, [][]byte{ocspOf(t, p.SignerECDSA)}, nil)
		}, "PAdES_BASELINE_T"},
		{"a store without a T-level time-stamp before it", func(t *testing.T, d *fixture.Document) {
			sign(t, d, cades.B)
			must(t, d.AddDSS(fixture.DSSOptions{PKI: p, At: at}))
		}, "PAdES_BASELINE_B"},
	}
	known := []struct {
		name  string
		certs []*x509.Certificate
	}{
		{"none", nil},
		{"the root", []*x509.Certificate{p.Root.Certificate}},
		{"the signer's CA", []*x509.Certificate{p.Intermediate.Certificate}},
		{"the signer", []*x509.Certificate{p.SignerRSA.Certificate}},
		{"the whole chain", []*x509.Certificate{p.Root.Certificate, p.Intermediate.Certificate, p.SignerRSA.Certificate}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := fixture.New(1)
			tt.build(t, d)
			for _, k := range known {
				sigs, err := pades.NewReader().Read(context.Background(), ports.Document{Name: "doc.pdf", Data: d.Bytes(), Certificates: k.certs})
				must(t, err)
				if len(sigs) != 1 {
					t.Fatalf("%d signatures, want 1", len(sigs))
				}
				if got := ades.SignatureFormat(sigs[0].Format, sigs[0].Level); got != tt.want {
					t.Errorf("with %s known: %s, want %s", k.name, got, tt.want)
				}
			}
		})
	}
}

// A PAdES signature whose CMS carries a signing-time attribute meets no
// baseline level (EN 319 142-1, 6.3, Table 1), whatever the document adds
// to it: DSS names it by the older profiles, PAdES_LTV with a document
// time-stamp over validation data that makes it LT, PAdES_BES otherwise
// (pades-021). The level stays what the evidence stands for.
func TestLevelWithSigningTimeAttribute(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	at := signedAt.Add(time.Hour)
	tests := []struct {
		name      string
		attribute bool
		level     cades.Level
		// first: a document time-stamp before the store (T by it).
		first, dss, last bool
		want             string
		wantLevel        ades.Level
	}{
		{"B", true, cades.B, false, false, false, "PAdES_BES", ades.LevelB},
		{"T", true, cades.T, false, false, false, "PAdES_BES", ades.LevelT},
		{"T and a store", true, cades.T, false, true, false, "PAdES_BES", ades.LevelLT},
		{"T, a store and a document time-stamp", true, cades.T, false, true, true, "PAdES_LTV", ades.LevelLTA},
		{"B, a document time-stamp, a store, a document time-stamp (pades-021)", true, cades.B, true, true, true, "PAdES_LTV", ades.LevelLTA},
		{"without the attribute: the same", false, cades.B, true, true, true, "PAdES_BASELINE_LTA", ades.LevelLTA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			d := fixture.New(1)
			is.NoErr(d.Sign(fixture.Options{PKI: p, Signer: p.SignerRSA, Level: tt.level, SigningTime: signedAt, SigningTimeAttribute: tt.attribute}))
			if tt.first {
				is.NoErr(d.AddDocumentTimestamp(fixture.TimestampOptions{PKI: p, At: at}))
			}
			if tt.dss {
				is.NoErr(d.AddDSS(fixture.DSSOptions{PKI: p, At: at.Add(time.Hour)}))
			}
			if tt.last {
				is.NoErr(d.AddDocumentTimestamp(fixture.TimestampOptions{PKI: p, At: at.Add(2 * time.Hour)}))
			}
			sigs, err := pades.NewReader().Read(context.Background(), ports.Document{Name: "doc.pdf", Data: d.Bytes()})
			is.NoErr(err)
			is.Equal(len(sigs), 1)
			is.Equal(sigs[0].FormatName(), tt.want)
			is.Equal(sigs[0].Level, tt.wantLevel)
			if tt.attribute {
				is.Equal(sigs[0].ClaimedSigningTime, signedAt) // /M, not the attribute
			}
		})
	}
}
