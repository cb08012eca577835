package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/sampleset"
)

// freeAddress returns a loopback address nobody listens on now. The PKI
// must be built for its address before the server that serves it starts,
// so the port is reserved and released: another process could take it in
// between, which on a test machine does not happen.
func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// samplesFor writes the samples for a development PKI at addr.
func samplesFor(t *testing.T, addr string) (string, sampleset.Manifest) {
	t.Helper()
	p, err := pki.New("http://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m, err := sampleset.Write(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	return dir, m
}

// expectedOf keeps the fields of a summary that the samples fix.
func expectedOf(sum verdict.ValidationSummary) sampleset.Expected {
	e := sampleset.Expected{Valid: sum.Valid, SignatureCount: sum.SignatureCount, Signatures: []sampleset.ExpectedSignature{}}
	for _, r := range sum.Signatures {
		e.Signatures = append(e.Signatures, sampleset.ExpectedSignature{
			SignatureFormat: r.SignatureFormat, Indication: r.Indication, SubIndication: r.SubIndication,
			TrustFramework: r.TrustFramework, AnchorCountry: r.AnchorCountry,
			EIDASQualification: r.EIDASQualification, SwissQualification: r.SwissQualification, HandwrittenEquivalent: r.HandwrittenEquivalent,
		})
	}
	for _, r := range sum.Timestamps {
		e.Timestamps = append(e.Timestamps, sampleset.ExpectedTimestamp{
			Name: r.Name, Container: r.Container, Indication: r.Indication, SubIndication: r.SubIndication,
			TrustFramework: r.TrustFramework, AnchorCountry: r.AnchorCountry, Qualification: r.Qualification,
		})
	}
	return e
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSamplesThroughTheAPI: development mode validates the samples of
// fixtures/samples exactly as their EXPECTED.json lists them.
func TestSamplesThroughTheAPI(t *testing.T) {
	t.Parallel()
	addr := freeAddress(t)
	dir, m := samplesFor(t, addr)
	s := dev(t, "SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS="+addr)
	waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.Current })
	for _, sample := range m.Samples {
		t.Run(sample.File, func(t *testing.T) {
			is := is.New(t)
			// Uploaded under their names: a bare time-stamp's entry is
			// named after its file.
			parts := []part{{field: "file", name: sample.File, data: read(t, dir, sample.File)}}
			for _, d := range sample.Detached {
				parts = append(parts, part{field: "detached", name: d, data: read(t, dir, d)})
			}
			res, body := postParts(t, s.URL, parts)
			is.Equal(res.StatusCode, 200)
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal(body, &sum))
			is.Equal(jsonOf(t, expectedOf(sum)), jsonOf(t, sample.Expected)) // sample.Description
			is.Equal(sum.TrustData.PrivateCA.Anchors[0].Subject, "CN=SVC DSS Private Test Root CA,O=SVC DSS Test Organisation,C=CH")
		})
	}
}

// TestSamplesThroughTheCommand: `validate --dev` gives the same verdicts.
func TestSamplesThroughTheCommand(t *testing.T) {
	t.Parallel()
	addr := freeAddress(t)
	dir, m := samplesFor(t, addr)
	env := append(offline(t), "SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS="+addr)
	for _, sample := range m.Samples {
		t.Run(sample.File, func(t *testing.T) {
			is := is.New(t)
			args := []string{"validate", filepath.Join(dir, sample.File), "--dev"}
			for _, d := range sample.Detached {
				args = append(args, "--detached", filepath.Join(dir, d))
			}
			code, out, errOut := command(t, env, args...)
			is.Equal(code, 0) // errOut holds the logs
			if t.Failed() {
				t.Log(errOut)
			}
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal([]byte(out), &sum))
			is.Equal(jsonOf(t, expectedOf(sum)), jsonOf(t, sample.Expected)) // sample.Description
		})
	}
}

// TestSamplesThroughTheUI: the browser UI of development mode shows
// each sample's verdict as EXPECTED.json lists it: the overall verdict,
// and each signature's indication, sub-indication, format and trust
// framework, and each time-stamp entry's indication, sub-indication and
// qualification.
func TestSamplesThroughTheUI(t *testing.T) {
	t.Parallel()
	addr := freeAddress(t)
	dir, m := samplesFor(t, addr)
	s := dev(t, "SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS="+addr)
	waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.Current })
	for _, sample := range m.Samples {
		// One after the other, as TestSamplesThroughTheAPI: the B-level
		// samples fetch revocation data from the development PKI, which
		// forty uploads at once would turn into time-outs.
		t.Run(sample.File, func(t *testing.T) {
			is := is.New(t)
			b := (&uiWorld{url: s.URL}).browser(t)
			csrf := csrfOf(t, b.get("/validate").body)
			parts := []part{{field: "file", name: sample.File, data: read(t, dir, sample.File)}}
			for _, d := range sample.Detached {
				parts = append(parts, part{field: "detached", name: d, data: read(t, dir, d)})
			}
			r := b.upload(csrf, parts...)
			is.Equal(r.status, 200)
			want := sample.Expected
			is.True(strings.Contains(element(r.body, "verdict"), fmt.Sprintf(`data-valid="%t"`, want.Valid))) // sample.Description
			for i, sig := range want.Signatures {
				n := i + 1
				is.True(strings.Contains(element(r.body, fmt.Sprintf("signature-%d-indication", n)), `data-indication="`+string(sig.Indication)+`"`))
				sub := ""
				if sig.SubIndication != nil {
					sub = string(*sig.SubIndication)
				}
				is.Equal(text(r.body, fmt.Sprintf("signature-%d-subindication", n)), sub)
				is.Equal(text(r.body, fmt.Sprintf("signature-%d-format", n)), sig.SignatureFormat)
				container := ""
				switch {
				case strings.HasSuffix(sample.File, ".asics"):
					container = "ASiC-S"
				case strings.HasSuffix(sample.File, ".asice"), strings.HasSuffix(sample.File, ".bdoc"):
					container = "ASiC-E" // a BDOC container is an ASiC-E
				}
				is.Equal(text(r.body, fmt.Sprintf("signature-%d-container", n)), container) // the container, shown
			}
			for i, e := range want.Timestamps {
				n := i + 1
				is.True(strings.Contains(element(r.body, fmt.Sprintf("timestamp-%d-indication", n)), `data-indication="`+string(e.Indication)+`"`))
				sub := ""
				if e.SubIndication != nil {
					sub = string(*e.SubIndication)
				}
				is.Equal(text(r.body, fmt.Sprintf("timestamp-%d-subindication", n)), sub)
				is.True(strings.HasSuffix(text(r.body, fmt.Sprintf("timestamp-%d-qualification", n)), "("+e.Qualification+")"))
			}
		})
	}
}

// postParts posts parts to POST /api/validate, each under its file name.
func postParts(t *testing.T, url string, parts []part) (*http.Response, []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, p := range parts {
		fw, err := w.CreateFormFile(p.field, p.name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(p.data)
	}
	w.Close()
	res, err := http.Post(url+"/api/validate", w.FormDataContentType(), &b)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

func read(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
