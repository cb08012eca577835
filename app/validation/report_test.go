package validation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/sampleset"
	"github.com/svc-dss/dss/fixtures/tl"
)

// sharedXSD is the directory of the ETSI and W3C schemas, in the shared
// tree beside the repository (../shared from its root; this package is app/validation).
var sharedXSD = filepath.Join("..", "..", "..", "shared", "reference", "xsd")

// sampleReport is one sample of fixtures/sampleset and its two reports.
type sampleReport struct {
	file             string
	expected         sampleset.Expected
	v                report.Validation
	detailed, etsiVR []byte
}

// reportsOfSamples validates every sample of fixtures/sampleset with
// ValidateReport, as the development mode does (its PKI, the EU and
// Swiss branches on the fixture lists, the samples' private root as a
// private anchor), a day after the samples' ValidFrom, and writes both
// reports of each. It checks that ValidateReport's summary is Validate's
// and the one the sample expects.
func reportsOfSamples(t *testing.T) []sampleReport {
	t.Helper()
	is := is.New(t)
	s := newValidationWith(t, sampleset.ValidFrom.Add(24*time.Hour), tl.EcosystemOptions{Branches: true})
	m, files, err := sampleset.Build(s.pki.PKI)
	is.NoErr(err)
	root, err := sampleset.PrivateRoot(s.pki.PKI)
	is.NoErr(err)
	v := s.v.At(s.at).Trusting(root)
	var out []sampleReport
	for _, sample := range m.Samples {
		doc := validation.Document{Name: sample.File, Data: files[sample.File]}
		for _, d := range sample.Detached {
			doc.Detached = append(doc.Detached, validation.Part{Name: d, Data: files[d]})
		}
		res, err := v.Validate(context.Background(), doc)
		is.NoErr(err) // sample.File
		again, err := v.Validate(context.Background(), doc)
		is.NoErr(err)
		is.Equal(jsonString(t, res.Validation.Summary), jsonString(t, res.Summary))      // the reports' summary is the result's
		is.Equal(jsonString(t, again.Summary), jsonString(t, res.Summary))               // deterministic
		is.Equal(jsonString(t, expectedOf(res.Summary)), jsonString(t, sample.Expected)) // the sample's verdict
		r := sampleReport{file: sample.File, expected: sample.Expected, v: res.Validation}
		r.detailed, err = res.DetailedReport()
		is.NoErr(err)
		r.etsiVR, err = res.ETSIReport()
		if res.Summary.SignatureCount == 0 {
			// A document of time-stamps alone has no ETSI report
			// (decision 0032).
			is.True(errors.Is(err, report.ErrNoSignature))
		} else {
			is.NoErr(err)
		}
		out = append(out, r)
	}
	return out
}

// TestReportsOfTheSamples validates the detailed report of every sample
// against docs/detailed-report.xsd and its ETSI TS 119 102-2 report
// against the standard's schema, with xmllint, offline, and checks that
// both say what the summary says.
func TestReportsOfTheSamples(t *testing.T) {
	t.Parallel()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint is not installed (libxml2-utils): the reports cannot be validated against their schemas")
	}
	samples := reportsOfSamples(t)
	coverage(t, samples)

	t.Run("detailed report against docs/detailed-report.xsd", func(t *testing.T) {
		is := is.New(t)
		dir := t.TempDir()
		var files []string
		for _, s := range samples {
			files = append(files, write(t, dir, s.file+".detailed.xml", s.detailed))
			snap := s.v.Summary.TrustData.Snapshot
			is.True(snap != nil)                                                                   // the samples are judged against lists
			is.True(bytes.Contains(s.detailed, []byte(`<TrustSnapshot SHA256="`+snap.SHA256+`"`))) // the summary's trust data, by digest
			d := parseDetailed(t, s.detailed)
			is.Equal(len(d.Signatures), s.v.Summary.SignatureCount)
			for i, sig := range d.Signatures {
				want := s.v.Summary.Signatures[i]
				is.Equal(sig.ID, want.SignatureID)
				is.Equal(sig.Conclusion.Indication, want.Indication)              // the summary's indication
				is.Equal(sig.Conclusion.SubIndication, deref(want.SubIndication)) // and sub-indication
				is.Equal(len(sig.Conclusion.Warnings), len(want.Warnings))        // and messages
				is.True(sig.Blocks.FC != nil)                                     // FC always runs
			}
			is.Equal(len(d.Timestamps), len(s.v.Summary.Timestamps))
			for i, e := range d.Timestamps {
				want := s.v.Summary.Timestamps[i]
				is.Equal(e.ID, want.ID)
				is.Equal(e.Conclusion.Indication, want.Indication) // the summary's indication
				is.Equal(e.Conclusion.SubIndication, deref(want.SubIndication))
				is.True(len(e.Constraints) > 0) // and its checks
			}
		}
		xmllintValid(t, xmllint, nil, filepath.Join("..", "..", "docs", "detailed-report.xsd"), files)
	})

	t.Run("ETSI TS 119 102-2 report against TS119102-2-v141.xsd", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(sharedXSD, "TS119102-2-v141.xsd")); err != nil {
			t.Skipf("the ETSI schemas are not at %s (../shared/reference/xsd from the repository): %v", sharedXSD, err)
		}
		is := is.New(t)
		dir := t.TempDir()
		var files []string
		for _, s := range samples {
			if s.etsiVR == nil {
				continue // time-stamps alone: no ETSI report
			}
			files = append(files, write(t, dir, s.file+".etsi.xml", s.etsiVR))
			snap := s.v.Summary.TrustData.Snapshot
			is.True(snap != nil)
			// The same trust data as the detailed report, in every
			// signature's process information.
			is.Equal(bytes.Count(s.etsiVR, []byte(`TrustSnapshot xmlns="urn:svc-dss:validation:detailed-report:1" SHA256="`+snap.SHA256+`"`)),
				s.v.Summary.SignatureCount)
			vr := parseETSI(t, s.etsiVR)
			is.Equal(len(vr.Signatures), s.v.Summary.SignatureCount)
			for i, sig := range vr.Signatures {
				want := s.v.Summary.Signatures[i]
				is.Equal(sig.Status.MainIndication, "urn:etsi:019102:mainindication:"+map[verdict.Indication]string{
					"TOTAL_PASSED": "total-passed", "TOTAL_FAILED": "total-failed", "INDETERMINATE": "indeterminate"}[want.Indication])
				if want.SubIndication != nil {
					is.Equal(sig.Status.SubIndication, []string{"urn:etsi:019102:subindication:" + want.SubIndication.String()})
				}
			}
			// xmllint does not resolve IDREFS: every reference must name
			// one validation object (TS 119 102-2, VOReferenceType).
			ids := map[string]bool{}
			for _, o := range vr.Objects {
				is.True(!ids[o.ID]) // one object per id
				ids[o.ID] = true
			}
			for _, ref := range voReferences(t, s.etsiVR) {
				if !ids[ref] {
					t.Errorf("%s: VOReference %s names no validation object", s.file, ref)
				}
			}
		}
		catalog, err := filepath.Abs(filepath.Join(sharedXSD, "catalog.xml"))
		is.NoErr(err)
		xmllintValid(t, xmllint, []string{"XML_CATALOG_FILES=" + catalog}, filepath.Join(sharedXSD, "TS119102-2-v141.xsd"), files)
	})
}

// coverage: the samples give reports of every kind the task names:
// valid, failed and indeterminate signatures, LT and LTA levels, CAdES
// and PAdES, with time-stamps and revocation data among the ETSI
// report's validation objects.
func coverage(t *testing.T, samples []sampleReport) {
	t.Helper()
	seen := map[string]bool{}
	for _, s := range samples {
		for _, sig := range s.v.Summary.Signatures {
			seen[sig.Indication.String()] = true
			format, level, _ := strings.Cut(sig.SignatureFormat, "_BASELINE_")
			seen[format], seen[level] = true, true
		}
		if s.etsiVR == nil {
			continue
		}
		for _, o := range parseETSI(t, s.etsiVR).Objects {
			seen[o.Type] = true
		}
	}
	for _, want := range []string{"TOTAL_PASSED", "TOTAL_FAILED", "INDETERMINATE", "CAdES", "PAdES", "B", "T", "LT", "LTA",
		"urn:etsi:019102:validationObject:certificate", "urn:etsi:019102:validationObject:timestamp",
		"urn:etsi:019102:validationObject:CRL", "urn:etsi:019102:validationObject:OCSPResponse",
		"urn:etsi:019102:validationObject:signedData"} {
		if !seen[want] {
			t.Errorf("no sample report covers %s", want)
		}
	}
}

// xmllintValid runs xmllint once over files against schema, offline, and
// fails unless every file validates.
func xmllintValid(t *testing.T, xmllint string, env []string, schema string, files []string) {
	t.Helper()
	args := append([]string{"--nonet", "--noout", "--schema", schema}, files...)
	cmd := exec.Command(xmllint, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("xmllint: %v", err)
	}
	for _, f := range files {
		if !strings.Contains(out.String(), f+" validates") {
			t.Errorf("%s does not validate against %s", filepath.Base(f), filepath.Base(schema))
		}
	}
	if t.Failed() || err != nil {
		t.Fatalf("xmllint %s:\n%s", strings.Join(args[:4], " "), out.String())
	}
	t.Logf("xmllint: %d reports validate against %s", len(files), filepath.Base(schema))
}

func write(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
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

// What the tests read back from the reports.
type (
	detailedDoc struct {
		Signatures []struct {
			ID     string `xml:"Id,attr"`
			Blocks struct {
				FC *struct{} `xml:"FC"`
			} `xml:"BuildingBlocks"`
			Conclusion struct {
				Indication    verdict.Indication    `xml:"Indication"`
				SubIndication verdict.SubIndication `xml:"SubIndication"`
				Warnings      []string              `xml:"Warning"`
			} `xml:"Conclusion"`
		} `xml:"Signature"`
		Timestamps []struct {
			ID          string     `xml:"Id,attr"`
			Constraints []struct{} `xml:"Constraint"`
			Conclusion  struct {
				Indication    verdict.Indication    `xml:"Indication"`
				SubIndication verdict.SubIndication `xml:"SubIndication"`
			} `xml:"Conclusion"`
		} `xml:"TimestampEntry"`
	}
	etsiDoc struct {
		Signatures []struct {
			Status struct {
				MainIndication string   `xml:"MainIndication"`
				SubIndication  []string `xml:"SubIndication"`
			} `xml:"SignatureValidationStatus"`
		} `xml:"SignatureValidationReport"`
		Objects []struct {
			ID   string `xml:"id,attr"`
			Type string `xml:"ObjectType"`
		} `xml:"SignatureValidationObjects>ValidationObject"`
	}
)

func parseDetailed(t *testing.T, b []byte) detailedDoc {
	t.Helper()
	var d detailedDoc
	if err := xml.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func parseETSI(t *testing.T, b []byte) etsiDoc {
	t.Helper()
	var d etsiDoc
	if err := xml.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// voReferences are the ids every VOReference attribute of doc names.
func voReferences(t *testing.T, doc []byte) []string {
	t.Helper()
	var out []string
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Local == "VOReference" {
					out = append(out, strings.Fields(a.Value)...)
				}
			}
		}
	}
}
