package validation_test

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/asic"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// Issue 20: "ASiC-S ... META-INF/timestamp.tst (an RFC 3161 time-stamp
// over the data object: reported as a time-stamp entry with its own
// indication and its TSA qualification)"; ASiC-E time-stamps over an
// ASiCManifest likewise; "a bare RFC 3161 time-stamp token (.tsr, .tst)
// uploaded with its data in detached is validated like the ASiC-S
// time-stamp". Each through the front door: the entry's indication,
// sub-indication, covered files, TSA and qualification, valid, and no
// signature counted.
func TestValidateTimestampEntries(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	files := asic.DefaultFiles()
	container := func(c asic.Container, d asic.Defect) []byte {
		fs := files[:1]
		if c == asic.ASiCE {
			fs = files
		}
		data, err := asic.Build(fs, asic.Options{PKI: p, Container: c, Inner: asic.TimestampOnly, SigningTime: signedYesterday, Defect: d})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	content := []byte("the contract\n")
	sum := sha256.Sum256(content)
	token, err := cades.TimestampToken(p, sum[:], signedYesterday)
	if err != nil {
		t.Fatal(err)
	}
	response, err := cades.TimestampResponse(p, p.TSA, sum[:], signedYesterday)
	if err != nil {
		t.Fatal(err)
	}
	untrusted, err := cades.UntrustedTimestampToken(p, sum[:], signedYesterday)
	if err != nil {
		t.Fatal(err)
	}
	contract := []validation.Part{{Name: "contract.txt", Data: content}}
	altered := []validation.Part{{Name: "contract.txt", Data: []byte("the contract, altered\n")}}
	tests := []struct {
		name      string
		doc       validation.Document
		container string // "" for a bare token
		entry     string
		ind       verdict.Indication
		sub       verdict.SubIndication
		data      []string
	}{
		{"ASiC-S time-stamp", validation.Document{Name: "t.asics", Data: container(asic.ASiCS, asic.NoDefect)}, "ASiC-S", asic.TimestampTST,
			verdict.Passed, "", []string{"document.txt"}},
		{"ASiC-S time-stamp, data altered", validation.Document{Name: "t.asics", Data: container(asic.ASiCS, asic.DataAltered)}, "ASiC-S", asic.TimestampTST,
			verdict.Failed, verdict.SubHashFailure, []string{}},
		{"ASiC-E time-stamp over the manifest", validation.Document{Name: "t.asice", Data: container(asic.ASiCE, asic.NoDefect)}, "ASiC-E", asic.TimestampTSTE,
			verdict.Passed, "", []string{asic.ASiCManifestXML, "document.txt", "annex/data.xml", "photo.bin"}},
		{"ASiC-E time-stamp, a manifest entry altered", validation.Document{Name: "t.asice", Data: container(asic.ASiCE, asic.DataAltered)}, "ASiC-E", asic.TimestampTSTE,
			verdict.Failed, verdict.SubHashFailure, []string{asic.ASiCManifestXML, "annex/data.xml", "photo.bin"}},
		{"ASiC-E time-stamp, a file removed", validation.Document{Name: "t.asice", Data: container(asic.ASiCE, asic.DataRemoved)}, "ASiC-E", asic.TimestampTSTE,
			verdict.Indeterminate, verdict.SubSignedDataNotFound, []string{asic.ASiCManifestXML, "annex/data.xml", "photo.bin"}},
		{"bare token with its data", validation.Document{Name: "contract.tst", Data: token, Detached: contract}, "", "contract.tst",
			verdict.Passed, "", []string{"contract.txt"}},
		{"bare response with its data", validation.Document{Name: "contract.tsr", Data: response, Detached: contract}, "", "contract.tsr",
			verdict.Passed, "", []string{"contract.txt"}},
		{"bare token, data altered", validation.Document{Name: "contract.tst", Data: token, Detached: altered}, "", "contract.tst",
			verdict.Failed, verdict.SubHashFailure, []string{}},
		{"bare token without its data", validation.Document{Name: "contract.tst", Data: token}, "", "contract.tst",
			verdict.Indeterminate, verdict.SubSignedDataNotFound, []string{}},
		{"bare token of an untrusted TSA", validation.Document{Name: "contract.tst", Data: untrusted, Detached: contract}, "", "contract.tst",
			verdict.Indeterminate, verdict.SubNoCertificateChainFound, []string{"contract.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			res, err := s.v.At(s.at).Validate(t.Context(), tt.doc)
			is.NoErr(err)
			sum := res.Summary
			is.Equal(sum.SignatureCount, 0)
			is.Equal(len(sum.Signatures), 0)
			is.Equal(len(sum.Timestamps), 1)
			e := sum.Timestamps[0]
			is.Equal(e.Name, tt.entry)
			is.Equal(e.Indication, tt.ind)
			if tt.sub == "" {
				is.Equal(e.SubIndication, nil)
				is.Equal(len(e.Errors), 0)
			} else {
				is.True(e.SubIndication != nil)
				is.Equal(*e.SubIndication, tt.sub)
				is.Equal(e.Errors[0].Code, string(tt.sub))
			}
			if tt.container == "" {
				is.Equal(e.Container, nil)
			} else {
				is.Equal(*e.Container, tt.container)
			}
			is.Equal(e.TimestampedData, tt.data)
			is.True(e.GenerationTime.Equal(signedYesterday.Truncate(1e9)))
			is.Equal(sum.Valid, tt.ind == verdict.Passed)
			if tt.sub != verdict.SubNoCertificateChainFound {
				is.Equal(e.TSA, p.TSA.Certificate.Subject.String())
			}
			if tt.ind == verdict.Passed {
				// The fixture TSA is a qualified time-stamping service of
				// the fixture lists.
				is.Equal(e.Qualification, "QTSA")
				is.Equal(e.TrustFramework, verdict.FrameworkEUEIDAS)
				is.Equal(*e.AnchorCountry, "DE")
			}
			// The detailed report carries the entry's checks; the ETSI
			// report needs a signature.
			xml, err := res.DetailedReport()
			is.NoErr(err)
			is.True(len(xml) > 0)
			_, err = res.ETSIReport()
			is.True(errors.Is(err, report.ErrNoSignature))
			out, err := json.Marshal(sum)
			is.NoErr(err)
			var back struct {
				Timestamps []map[string]any `json:"timestamps"`
			}
			is.NoErr(json.Unmarshal(out, &back))
			is.Equal(back.Timestamps[0]["name"], tt.entry)
		})
	}
}
