package validation_test

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/qualification"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/ports"
)

// Where the MRA pilot's lists are cached, and when they are read.
const (
	mraLOTL = "https://example.test/mra-lotl.xml"
	mraZZ   = "https://esignature.ec.europa.eu/efda/intl-pilot/api/v1/intl-pilot/tl/mra_tl_zz.xml"
)

var mraAt = time.Date(2022, 7, 28, 9, 0, 0, 0, time.UTC) // xades-037's signing time

// loadMRAPilot loads the corpus's MRA pilot LOTL and ZZ list, as edit
// leaves the latter, from a cache, with the pilot LOTL's signer as the
// keystore.
func loadMRAPilot(t *testing.T, edit func(zz []byte) []byte) *trust.Snapshot {
	t.Helper()
	dir := realworld.Trust(t)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	cache, err := tlcache.Open(t.TempDir(), logger)
	if err != nil {
		t.Fatal(err)
	}
	for url, file := range map[string]string{mraLOTL: "dss/mra/mra-lotl.xml", mraZZ: "dss/mra/mra-zz-tl.xml"} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if url == mraZZ {
			data = edit(data)
		}
		if err := cache.Store(context.Background(), url, data, ports.ListMeta{Downloaded: mraAt, LastOnlineConfirmation: mraAt}); err != nil {
			t.Fatal(err)
		}
	}
	signerDER, err := os.ReadFile(filepath.Join(dir, "anchors", "pades-009-mra-john-doe-lta-1.cer")) // ZZ-LOTL-signer
	if err != nil {
		t.Fatal(err)
	}
	lotlSigner, err := cert.Parse(signerDER)
	if err != nil {
		t.Fatal(err)
	}
	store := validation.NewTrustStore(validation.TrustSources{LOTLURL: mraLOTL, OJCerts: []*x509.Certificate{lotlSigner}, OJSource: "ZZ-LOTL-signer"},
		cache, offlineSource{t}, trust.PrivateCA{}, func() time.Time { return mraAt }, logger)
	return store.LoadCache(context.Background())
}

// The corpus's MRA pilot: a LOTL whose pointer to the third-country ZZ
// list carries the equivalences, and the ZZ list. Loaded as the LOTL, the
// ZZ list is mapped onto eIDAS terms, and the qualified signer of the
// corpus case xades-037 (John Doe, ZZ qualified CA) comes out QESIG, as
// EU DSS's ThirdCountryLOTLTest asserts.
func TestMRAThirdCountryList(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := realworld.Trust(t)
	snap := loadMRAPilot(t, func(zz []byte) []byte { return zz })

	var zz *trust.ListState
	for i, l := range snap.Lists {
		if l.URL == mraZZ {
			zz = &snap.Lists[i]
		}
	}
	if zz == nil || zz.List == nil {
		t.Fatalf("the ZZ list was not loaded: %+v", snap.Lists)
	}
	is.Equal(zz.Territory, "ZZ")          // the name its pointer's type gives it
	is.Equal(zz.Framework, trust.EUEIDAS) // mapped onto eIDAS by the agreement
	is.Equal(zz.Authenticity, trust.AuthValid)
	svc := zz.List.Providers[0].Services[0]
	is.Equal(svc.Type, trust.TypeCAQC)
	is.Equal(svc.Status, trust.StatusGranted)
	is.True(svc.Equivalence != nil)

	// The signer of xades-037 and its qualification through the ZZ list.
	doc, err := os.ReadFile(realworld.File(t, "xades-037-mra-john-doe-lta"))
	is.NoErr(err)
	m := regexp.MustCompile(`<ds:X509Certificate>([^<]*)</ds:X509Certificate>`).FindSubmatch(doc)
	is.True(m != nil)
	der, err := base64.StdEncoding.DecodeString(regexp.MustCompile(`\s`).ReplaceAllString(string(m[1]), ""))
	is.NoErr(err)
	signer, err := cert.Parse(der)
	is.NoErr(err)
	anchors := certpath.NewAnchorSet(certpath.AnchorsFrom(snap, cert.Parse))
	var intermediates []*x509.Certificate // the case's CA certificates, as DSS's test supplies them
	for _, n := range []string{"2", "3"} {
		der, err := os.ReadFile(filepath.Join(dir, "anchors", "xades-037-mra-john-doe-lta-"+n+".cer"))
		is.NoErr(err)
		c, err := cert.Parse(der)
		is.NoErr(err)
		intermediates = append(intermediates, c)
	}
	paths, err := certpath.Build(signer, certpath.Options{AnchorSet: anchors, Intermediates: intermediates, CheckSignature: cert.CheckCertificateSignature})
	is.NoErr(err)
	a := paths[0].Anchor
	var listings []qualification.Listing
	for _, l := range anchors.Listed(a.Certificate) {
		listings = append(listings, qualification.Listing{Service: l.Service, Territory: l.Territory, Framework: l.Framework})
	}
	r := qualification.Evaluate(qualification.Input{Indication: verdict.TotalPassed, Signer: signer, Framework: a.Framework, Listings: listings, BestSignatureTime: mraAt})
	is.Equal(*r.EIDAS, qualification.QESig)
	is.Equal(r.Notes[0].Code, qualification.CodeMRA)
}

// A tampered third-country list that claims to be "EU" never becomes a
// second EU entry: its territory comes from the pointer that led to it,
// and a copy whose signature fails supplies nothing. Before, the list
// named itself, so the tampered copy was held as a second "EU" list.
func TestMRAListTerritoryComesFromItsPointer(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	snap := loadMRAPilot(t, func(zz []byte) []byte {
		claimsEU := regexp.MustCompile(`<SchemeTerritory>ZZ</SchemeTerritory>`).ReplaceAll(zz, []byte("<SchemeTerritory>EU</SchemeTerritory>"))
		is.True(string(claimsEU) != string(zz))
		return claimsEU
	})

	eu := 0
	for _, l := range snap.Lists {
		if l.Territory == "EU" {
			eu++
		}
		if l.URL == mraZZ {
			is.Equal(l.Territory, "XX") // its pointer's
			is.True(l.List == nil)      // nothing of it in use
			is.Equal(l.Refusal, trust.Check{Authenticity: trust.AuthIndeterminate, Reason: trust.ReasonSubstituted})
		}
	}
	is.Equal(eu, 1) // the LOTL alone
}
