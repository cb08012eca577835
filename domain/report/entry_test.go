package report_test

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/xml"
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/qualification"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// A document of one time-stamp entry (decision 0032): the detailed report
// has its checks, its conclusion and its TSA's path; its qualification is
// the one a signature's time-stamp by the same TSA gets (one place); the
// ETSI report needs a signature; details that are not the summary's are
// refused.
func TestTimestampEntryReports(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	at := vt.Add(-24 * time.Hour)
	anchors := certpath.NewAnchorSet([]certpath.Anchor{{Certificate: p.Root.Certificate, Framework: trust.EUEIDAS, Territory: "DE", Authenticated: true}})
	e := ades.TimestampEntry{ID: "T-1", Name: "contract.tst",
		Timestamp:   signature(p.SignerRSA, p.TSA, at).Timestamps[0],
		DataObjects: []ades.DataObject{{Name: "contract.txt", Found: true, Intact: true, DigestAlgorithm: "SHA-256"}}}
	in := etsi.Inputs{Anchors: anchors, Intermediates: []*x509.Certificate{p.Intermediate.Certificate}, Revocation: map[string][]revocation.Fact{}}
	for _, l := range etsi.Needs(e.Evidence(), in) {
		in.Revocation[etsi.Key(l.Cert)] = []revocation.Fact{{Certificate: l.Cert, Issuer: l.Issuer, Source: revocation.CRL, Status: revocation.Good,
			ThisUpdate: vt.Add(-time.Hour), NextUpdate: vt.Add(24 * time.Hour), Signer: l.Issuer}}
	}
	r := etsi.ValidateTimestamp(e, in, etsi.Policy{ValidationTime: vt})
	is.Equal(r.Indication, verdict.Passed)
	rep := qualification.OfTimestamp(e, r, anchors)
	is.Equal(rep.TimestampedData, []string{"contract.txt"})

	// The same TSA's time-stamp of a signature, qualified by OfSignature.
	v := validation(t, p, signature(p.SignerRSA, p.TSA, at))
	sigTS := v.Summary.Signatures[0].Timestamps[0]
	is.Equal(rep.TrustFramework, sigTS.TrustFramework)
	is.Equal(*rep.AnchorCountry, *sigTS.AnchorCountry)
	is.Equal(rep.Qualification, sigTS.Qualification)

	sum := verdict.Summarize("contract.tst", sha256.Sum256([]byte("token")), nil, verdict.TrustData{}).WithTimestamps([]verdict.TimestampEntryReport{rep})
	is.True(sum.Valid) // an entry that passed, and no signature
	is.Equal(sum.SignatureCount, 0)
	val := report.Validation{Summary: sum, ValidationTime: vt, Timestamps: []report.TimestampEntry{{Evidence: e, Result: r}}}
	out, err := report.Detailed(val)
	is.NoErr(err)
	var d struct {
		Entries []struct {
			ID          string     `xml:"Id,attr"`
			Name        string     `xml:"Name,attr"`
			Constraints []struct{} `xml:"Constraint"`
			Data        []string   `xml:"TimestampedData"`
			Conclusion  conclusion `xml:"Conclusion"`
			Chain       *struct{}  `xml:"CertificateChain"`
		} `xml:"TimestampEntry"`
	}
	is.NoErr(xml.Unmarshal(out, &d))
	is.Equal(len(d.Entries), 1)
	is.Equal(d.Entries[0].ID, "T-1")
	is.Equal(d.Entries[0].Name, "contract.tst")
	is.Equal(d.Entries[0].Data, []string{"contract.txt"})
	is.Equal(d.Entries[0].Conclusion.Indication, verdict.Passed)
	is.True(len(d.Entries[0].Constraints) > 5)
	is.True(d.Entries[0].Chain != nil)

	_, err = report.ETSI(val)
	is.True(errors.Is(err, report.ErrNoSignature))

	bad := val
	bad.Timestamps = nil
	_, err = report.Detailed(bad)
	is.True(errors.Is(err, report.ErrInconsistent))
}
