package validation_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/fixtures/tl"
)

// TestNewNamesTheWrongOption: an option New cannot use is an error that
// names it, with the reason; so are options that exclude each other.
func TestNewNamesTheWrongOption(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	notAList := filepath.Join(dir, "not-a-list.xml")
	for name, data := range map[string]string{file: "x", notAList: "<html/>"} {
		if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	eco := listFiles(t)
	lotl := validation.TrustedList{URL: "https://example.test/lotl.xml"}
	tests := []struct {
		name string
		opts []validation.Option
		want string
	}{
		{"the zero option", []validation.Option{{}}, "validation: the zero Option"},
		{"nil logger", []validation.Option{validation.WithLogger(nil)}, "validation: WithLogger: nil logger"},
		{"nil clock", []validation.Option{validation.WithClock(nil)}, "validation: WithClock: nil clock"},
		{"zero time", []validation.Option{validation.WithTime(time.Time{})}, "validation: WithTime: zero time"},
		{"LOTL without URL", []validation.Option{validation.WithEULOTL(validation.TrustedList{})}, "validation: WithEULOTL: no URL"},
		{"Swiss list without URL", []validation.Option{validation.WithSwissList(validation.TrustedList{})}, "validation: WithSwissList: no URL"},
		{"cache directory missing", []validation.Option{validation.WithListCache(filepath.Join(dir, "absent")), validation.WithEULOTL(lotl)},
			"validation: WithListCache: stat " + filepath.Join(dir, "absent") + ": no such file or directory"},
		{"cache directory a file", []validation.Option{validation.WithListCache(file), validation.WithEULOTL(lotl)}, "validation: WithListCache: " + file + " is not a directory"},
		{"cache naming no list", []validation.Option{validation.WithListCache(dir)}, "validation: WithListCache: names no list to read: give WithEULOTL or WithSwissList"},
		{"nil cache", []validation.Option{validation.WithListStore(nil)}, "validation: WithListStore: nil cache"},
		{"nil anchor", []validation.Option{validation.WithPrivateAnchors(nil)}, "validation: WithPrivateAnchors: nil certificate"},
		{"no private CA directory", []validation.Option{validation.WithPrivateCADirectory("")}, "validation: WithPrivateCADirectory: no directory"},
		{"nil certificate", []validation.Option{validation.WithCertificates(nil)}, "validation: WithCertificates: nil certificate"},
		{"nil observer", []validation.Option{validation.WithObserver(nil)}, "validation: WithObserver: nil observer"},
		{"proxy without port", []validation.Option{validation.WithEgress(validation.Egress{ProxyHost: "proxy.example"})}, "validation: WithEgress: a proxy needs both a host and a port"},
		{"proxy port out of range", []validation.Option{validation.WithEgress(validation.Egress{ProxyHost: "proxy.example", ProxyPort: 70000})}, "validation: WithEgress: proxy port 70000 out of range"},
		{"thresholds the wrong way round", []validation.Option{validation.WithFreshness(func() (th freshness.Thresholds) {
			th = validation.DefaultThresholds()
			th.FailAfter = th.WarnAfter
			return th
		}())}, "validation: WithFreshness: want 0 < warn-after < fail-after, a failure threshold of at least 1 and a withdrawal window not negative, got 168h0m0s, 168h0m0s, 3, 720h0m0s"},
		{"no format named", []validation.Option{validation.WithFormats()}, "validation: WithFormats: no format named"},
		{"a format not registered", []validation.Option{validation.WithFormats("PAdES", "EAdES")}, `validation: WithFormats: no format "EAdES" is registered (CAdES, PAdES, XAdES, ASiC, JAdES, TST)`},
		{"nil registry", []validation.Option{validation.WithRegistry(nil)}, "validation: WithRegistry: nil registry"},
		{"no reader", []validation.Option{validation.WithReaders()}, "validation: WithReaders: want at least one reader, none nil"},
		{"no list file", []validation.Option{validation.WithTrustedListFiles(nil)}, "validation: WithTrustedListFiles: no file"},
		{"list file missing", []validation.Option{validation.WithTrustedListFiles(nil, filepath.Join(dir, "absent.xml"))},
			"validation: WithTrustedListFiles: open " + filepath.Join(dir, "absent.xml") + ": no such file or directory"},
		{"not a list", []validation.Option{validation.WithTrustedListFiles(nil, notAList)},
			"validation: WithTrustedListFiles: " + notAList + ": trustlist: unparseable trusted list: not a TrustServiceStatusList: root element is {}html"},
		{"two LOTLs", []validation.Option{validation.WithTrustedListFiles(nil, eco.lotl, eco.lotl)},
			"validation: WithTrustedListFiles: " + eco.lotl + " and " + eco.lotl + ": two lists of trusted lists, one at most"},
		{"a member list without its LOTL", []validation.Option{validation.WithTrustedListFiles(nil, eco.de)},
			"validation: WithTrustedListFiles: " + eco.de + ": the list of DE needs the list of trusted lists that points to it"},
		{"a list the LOTL does not point to", []validation.Option{validation.WithTrustedListFiles(nil, eco.lotl, eco.ch, eco.ch)},
			"validation: WithTrustedListFiles: " + eco.ch + ": the list of trusted lists " + eco.lotl + " names no list of CH"},
		{"files and a cache", []validation.Option{validation.WithTrustedListFiles(nil, eco.lotl), validation.WithListCache(dir)},
			"validation: WithListCache and WithTrustedListFiles: cannot be given together"},
		{"files and a LOTL", []validation.Option{validation.WithEULOTL(lotl), validation.WithTrustedListFiles(nil, eco.lotl)},
			"validation: WithEULOTL and WithTrustedListFiles: cannot be given together"},
		{"a subset of formats and readers", []validation.Option{validation.WithFormats("CAdES"), validation.WithReaders(fakeReader{})},
			"validation: WithFormats and WithReaders: cannot be given together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := validation.New(context.Background(), tt.opts...)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("New: got %v, want %q", err, tt.want)
			}
			if v != nil {
				t.Errorf("New returned a validator with its error")
			}
		})
	}
}

// fixtureLists are the fixture ecosystem's lists written to files, and
// what they are signed with.
type fixtureLists struct {
	p                *pki.PKI
	eco              *tl.Ecosystem
	dir              string
	lotl, de, fr, ch string
	signers          []*x509.Certificate // the LOTL's and the Swiss list's
}

// listFiles publishes the fixture lists (with the qualification
// branches), issued an hour before pki.ReferenceTime, and writes them to
// files.
func listFiles(t *testing.T) *fixtureLists {
	t.Helper()
	p, err := pki.New("http://127.0.0.1:9") // never asked: nothing is fetched
	if err != nil {
		t.Fatal(err)
	}
	eco, err := tl.NewEcosystemWith(p, pki.ReferenceTime, tl.EcosystemOptions{Branches: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eco.Close() })
	f := &fixtureLists{p: p, eco: eco, dir: t.TempDir(), signers: []*x509.Certificate{eco.LOTLSigner.Certificate, eco.SwissSigner.Certificate}}
	for territory, path := range map[string]*string{"EU": &f.lotl, "DE": &f.de, "FR": &f.fr, "CH": &f.ch} {
		*path = f.write(t, territory)
	}
	return f
}

// write writes the territory's published list to a file of its own.
func (f *fixtureLists) write(t *testing.T, territory string) string {
	t.Helper()
	res, err := http.Get(f.eco.Publisher.URL + f.eco.Path(territory))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %v", territory, res.StatusCode, err)
	}
	file, err := os.CreateTemp(f.dir, territory+"-*.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := file.Write(data); err != nil {
		t.Fatal(err)
	}
	return file.Name()
}

// TestTrustedListFiles: lists given as files are checked as a refresh
// checks a download (the LOTL and the Swiss list against the given
// signers, a member list against its pointer's), and what they list is
// trusted: a qualified signer on the EU branch comes out QES under
// eIDAS, offline, with nothing downloaded. A list whose signature fails
// lends nothing; a member list not given is unavailable.
func TestTrustedListFiles(t *testing.T) {
	t.Parallel()
	f := listFiles(t)
	at := pki.ReferenceTime
	content := []byte("contract")
	sig, err := cades.Sign(content, cades.Options{PKI: f.p, Signer: f.p.SignerEUQES, Level: cades.LT, Detached: true, TSA: f.p.TSAEU, SigningTime: at.Add(-12 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	doc := document(sig, content, true)
	tamperedDE := f.write(t, "DE")
	data, err := os.ReadFile(tamperedDE)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(data, []byte("Fixture EU qualified CA"), []byte("Fixture EU qualified CB"), 1)
	if bytes.Equal(tampered, data) {
		t.Fatal("the DE list names no EU qualified CA")
	}
	data = tampered
	if err := os.WriteFile(tamperedDE, data, 0o600); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name       string
		signers    []*x509.Certificate
		files      []string
		lists      map[string]string // territory: authenticity, or "unavailable"
		indication verdict.Indication
		framework  string
		qualified  bool // QESig, on authenticated list data
	}{
		{"every list given", f.signers, []string{f.lotl, f.de, f.fr, f.ch},
			map[string]string{"EU": "VALID", "DE": "VALID", "FR": "VALID", "CH": "VALID"}, verdict.TotalPassed, "EU_EIDAS", true},
		{"the member list that lists the CA missing", f.signers, []string{f.lotl, f.fr},
			map[string]string{"EU": "VALID", "DE": "unavailable", "FR": "VALID"}, verdict.Indeterminate, "UNKNOWN", false},
		{"the member list tampered with", f.signers, []string{f.lotl, tamperedDE, f.fr},
			map[string]string{"EU": "VALID", "DE": "unavailable", "FR": "VALID"}, verdict.Indeterminate, "UNKNOWN", false},
		{"no signer given: held unauthenticated, as the service holds lists without its keystore", nil, []string{f.lotl, f.de},
			map[string]string{"EU": "NOT_CHECKED", "DE": "NOT_CHECKED", "FR": "unavailable"}, verdict.TotalPassed, "EU_EIDAS", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			v, err := validation.New(context.Background(), validation.WithTrustedListFiles(tt.signers, tt.files...), validation.WithTime(at),
				validation.WithClock(func() time.Time { return at }), validation.Offline())
			is.NoErr(err)
			got := map[string]string{}
			for _, l := range v.Snapshot().Lists {
				got[l.Territory] = "unavailable"
				if l.List != nil {
					got[l.Territory] = l.Authenticity.String()
				}
			}
			is.Equal(got, tt.lists)
			res, err := v.Validate(context.Background(), doc)
			is.NoErr(err)
			s := res.Summary.Signatures[0]
			is.Equal(s.Indication, tt.indication)
			is.Equal(s.TrustFramework, tt.framework)
			is.Equal(s.AnchorDataAuthenticated, tt.qualified)
			if tt.qualified {
				is.Equal(deref(s.EIDASQualification), "QESIG")
			}
		})
	}
}

// The MRA case of the corpus through WithTrustedListFiles, as the
// validate command's --trusted-list will give it: the pilot LOTL signed
// by the given signer and the third-country ZZ list it points to, found
// among the files by the territory its pointer names, are authenticated
// and the ZZ list is read in eIDAS terms through the agreement.
func TestTrustedListFilesMRA(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := realworld.Trust(t)
	der, err := os.ReadFile(filepath.Join(dir, "anchors", "xades-037-mra-john-doe-lta-1.cer"))
	is.NoErr(err)
	signer, err := cert.Parse(der)
	is.NoErr(err)
	v, err := validation.New(context.Background(), validation.WithClock(func() time.Time { return mraAt }),
		validation.WithTrustedListFiles([]*x509.Certificate{signer}, filepath.Join(dir, "dss/mra/mra-lotl.xml"), filepath.Join(dir, "dss/mra/mra-zz-tl.xml")))
	is.NoErr(err)
	var zz *trust.ListState
	for i, l := range v.Snapshot().Lists {
		if l.URL == mraZZ {
			zz = &v.Snapshot().Lists[i]
		}
	}
	if zz == nil || zz.List == nil {
		t.Fatalf("the ZZ list was not loaded: %+v", v.Snapshot().Lists)
	}
	is.Equal(zz.Territory, "ZZ")
	is.Equal(zz.Framework, trust.EUEIDAS)
	is.Equal(zz.Authenticity, trust.AuthValid)
	is.True(zz.List.Providers[0].Services[0].Equivalence != nil)
}

// TestListCacheIsReadOnly: WithListCache reads the service's cache and
// never writes it, even when Refresh downloads newer lists: those are
// kept in memory.
func TestListCacheIsReadOnly(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	service, _ := e.service(t)
	service.Refresh(context.Background()) // fills the cache
	before := treeDigest(t, e.cacheDir)

	lotl := validation.TrustedList{URL: e.eco.LOTLURL, Signers: []*x509.Certificate{e.eco.LOTLSigner.Certificate}}
	swiss := validation.TrustedList{URL: e.eco.SwissURL, Signers: []*x509.Certificate{e.eco.SwissSigner.Certificate}}
	v, err := validation.New(context.Background(), validation.WithListCache(e.cacheDir), validation.WithEULOTL(lotl), validation.WithSwissList(swiss), validation.WithClock(e.clock.Now))
	is.NoErr(err)
	loaded := v.TrustStatus(e.clock.Now())
	is.Equal(len(loaded.Lists), 4) // EU, DE, FR, CH from the cache
	for _, l := range loaded.Lists {
		is.Equal(l.Authenticity, "VALID")
	}

	spec := e.eco.Spec("FR")
	spec.SequenceNumber++
	is.NoErr(e.eco.Publish("FR", spec, 0))
	e.clock.Advance(time.Hour)
	v.Refresh(context.Background())
	for _, l := range v.Snapshot().Lists {
		is.True(l.ConfirmedInThisProcess)
		if l.Territory == "FR" {
			is.Equal(l.List.SequenceNumber, spec.SequenceNumber) // the new copy, in memory
		}
	}
	is.Equal(treeDigest(t, e.cacheDir), before) // the cache untouched
}

// treeDigest names every file of dir with its content's digest.
func treeDigest(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		sum := sha256.Sum256(data)
		out[path] = hex.EncodeToString(sum[:])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWithFormatsReadsTheNamedOnly: a subset of the registry's formats
// is read, named in any case; a document of another is unreadable, and
// the error names what is read.
func TestWithFormatsReadsTheNamedOnly(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, err := pki.New("http://127.0.0.1:9")
	is.NoErr(err)
	sig, err := cades.Sign([]byte("contract"), cades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.LT, SigningTime: pki.ReferenceTime.Add(-time.Hour)})
	is.NoErr(err)
	doc := validation.Document{Name: "contract.p7m", Data: sig}

	v := offlineValidator(t, validation.WithFormats("pades"))
	is.Equal(v.Formats(), "PAdES")
	_, err = v.Validate(context.Background(), doc)
	is.True(errors.Is(err, validation.ErrUnreadable))
	is.Equal(err.Error(), "unreadable document: not a signature format this service reads (PAdES)")

	v = offlineValidator(t, validation.WithFormats("CAdES"))
	res, err := v.Validate(context.Background(), doc)
	is.NoErr(err)
	is.Equal(res.Summary.SignatureCount, 1)
}

// TestWithCertificates: certificates given to the validator complete a
// chain the document leaves out, offline, and identify a signer whose
// certificate the document does not carry; they anchor nothing.
func TestWithCertificates(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9") // offline: never asked
	if err != nil {
		t.Fatal(err)
	}
	at := pki.ReferenceTime
	content := []byte("contract")
	sign := func(o cades.Options) validation.Document {
		o.PKI, o.Signer, o.Level, o.SigningTime = p, p.SignerRSA, cades.B, at.Add(-time.Hour)
		der, err := cades.Sign(content, o)
		if err != nil {
			t.Fatal(err)
		}
		return document(der, content, false)
	}
	noChain := sign(cades.Options{OmitIntermediates: true})
	noCertificate := sign(cades.Options{OmitIntermediates: true, OmitSignerCertificate: true})
	tests := []struct {
		name    string
		doc     validation.Document
		opts    []validation.Option
		chained bool // a path to the root was built
	}{
		{"no chain in the document", noChain, nil, false},
		{"the intermediate given", noChain, []validation.Option{validation.WithCertificates(p.Intermediate.Certificate)}, true},
		{"the intermediate given, the root not trusted", noChain, []validation.Option{validation.WithCertificates(p.Intermediate.Certificate, p.Root.Certificate)}, false},
		{"no certificate in the document, the signer's given", noCertificate,
			[]validation.Option{validation.WithCertificates(p.SignerRSA.Certificate, p.Intermediate.Certificate)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			opts := append([]validation.Option{validation.WithTime(at), validation.WithPrivateAnchors(p.Root.Certificate)}, tt.opts...)
			if tt.name == "the intermediate given, the root not trusted" {
				opts = []validation.Option{validation.WithTime(at), tt.opts[0]}
			}
			v := offlineValidator(t, opts...)
			res, err := v.Validate(context.Background(), tt.doc)
			is.NoErr(err)
			s := res.Summary.Signatures[0]
			// Offline, a B-level signature has no revocation data: at
			// best INDETERMINATE for that, never for its chain.
			is.Equal(s.Indication, verdict.Indeterminate)
			is.Equal(deref(s.SubIndication) != verdict.SubNoCertificateChainFound && deref(s.SubIndication) != verdict.SubNoSigningCertificateFound, tt.chained)
		})
	}
}

// TestNewStartsNothing: New, a validation and the end of both leave no
// goroutine of ours behind: the validator has no background work until
// the caller asks for a refresh. Goroutines are told by their stacks
// (those of earlier tests, an idle HTTP connection, may come and go).
func TestNewStartsNothing(t *testing.T) {
	// Not parallel: no other test of ours may run meanwhile.
	is := is.New(t)
	f := listFiles(t)
	doc := document(mustSign(t, f.p), []byte("contract"), true)
	v, err := validation.New(context.Background(), validation.WithTrustedListFiles(f.signers, f.lotl, f.de, f.fr, f.ch), validation.WithTime(pki.ReferenceTime), validation.Offline())
	is.NoErr(err)
	_, err = v.Validate(context.Background(), doc)
	is.NoErr(err)
	// A goroutine that ends takes a moment to be gone.
	deadline := time.Now().Add(5 * time.Second)
	left := ours()
	for len(left) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		left = ours()
	}
	for _, g := range left {
		t.Errorf("a goroutine outlives New and Validate:\n%s", g)
	}
}

// ours returns the stacks of the goroutines, other than the caller's,
// that run code of this module outside its fixtures (whose servers the
// tests start).
func ours() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for i, g := range strings.Split(string(buf), "\n\n") {
		// The caller's own, and the tests' (a parallel test waiting for
		// its turn runs no code of ours).
		if i == 0 || strings.Contains(g, "testing.tRunner(") {
			continue
		}
		for _, line := range strings.Split(g, "\n") {
			if strings.Contains(line, "github.com/svc-dss/dss/") && !strings.Contains(line, "github.com/svc-dss/dss/fixtures/") && !strings.Contains(line, "_test.") {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

func mustSign(t *testing.T, p *pki.PKI) []byte {
	t.Helper()
	der, err := cades.Sign([]byte("contract"), cades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.LT, Detached: true, SigningTime: pki.ReferenceTime.Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// TestConcurrentValidationsAndRefreshes: one validator serves
// validations while refreshes swap its snapshot: every validation reads
// one whole snapshot and passes (run with -race to see the sharing).
func TestConcurrentValidationsAndRefreshes(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := listFiles(t)
	v, err := validation.New(context.Background(), validation.WithTrustedListFiles(f.signers, f.lotl, f.de, f.fr, f.ch),
		validation.WithTime(pki.ReferenceTime), validation.WithClock(func() time.Time { return pki.ReferenceTime }), validation.Offline())
	is.NoErr(err)
	doc := document(mustSign(t, f.p), []byte("contract"), true)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for range 4 {
		wg.Go(func() {
			for range 3 {
				v.Refresh(context.Background())
			}
		})
	}
	for range 16 {
		wg.Go(func() {
			res, err := v.Validate(context.Background(), doc)
			switch {
			case err != nil:
				errs <- err
			case res.Summary.Signatures[0].Indication != verdict.TotalPassed:
				errs <- errors.New(string(res.Summary.Signatures[0].Indication))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
