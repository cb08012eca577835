package certpath_test

import (
	"crypto/x509"
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/trust"
)

func TestAnchorsFrom(t *testing.T) {
	t.Parallel()
	p := fx(t)
	root, inter := p.Root, p.Intermediate

	tsaList := tlState("AT", trust.EUEIDAS)
	tsaList.List.Providers[0].Services = append(tsaList.List.Providers[0].Services, trust.Service{
		Type: trust.TypeQTST, Status: trust.StatusGranted,
		Identity: trust.Identity{Certificates: [][]byte{p.TSA.DER, []byte("not a certificate")}},
		History: []trust.StatusPeriod{{
			Status: trust.StatusAccredited, Start: time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC),
			Identity: trust.Identity{Certificates: [][]byte{p.TSA.DER, p.OCSPResponder.DER}},
		}},
	})

	type view struct {
		CN        string
		Framework trust.Framework
		Territory string
		Private   bool
		Type      trust.ServiceType
		Swiss     bool
	}
	tests := []struct {
		name string
		snap *trust.Snapshot
		want []view
	}{
		{name: "nil snapshot", snap: nil},
		{
			name: "EU and Swiss list hold the same root: CH first, EU marked",
			snap: &trust.Snapshot{Lists: []trust.ListState{
				tlState("DE", trust.EUEIDAS, root.DER),
				tlState("CH", trust.CHZERTES, root.DER),
			}},
			want: []view{
				{"SVC DSS Test Root CA", trust.CHZERTES, "CH", false, trust.TypeCAQC, false},
				{"SVC DSS Test Root CA", trust.EUEIDAS, "DE", false, trust.TypeCAQC, true},
			},
		},
		{
			name: "every service type kept, history included, unparsable skipped, list without copy skipped",
			snap: &trust.Snapshot{Lists: []trust.ListState{
				{Territory: "FR", Framework: trust.EUEIDAS}, // no usable copy
				tsaList,
				tlState("CH", trust.CHZERTES, inter.DER),
			}},
			want: []view{
				{"SVC DSS Test Issuing CA", trust.CHZERTES, "CH", false, trust.TypeCAQC, false},
				{"SVC DSS Test TSA", trust.EUEIDAS, "AT", false, trust.TypeQTST, false},
				{"SVC DSS Test OCSP Responder", trust.EUEIDAS, "AT", false, trust.TypeQTST, false},
			},
		},
		{
			name: "private anchors last, framework UNKNOWN",
			snap: &trust.Snapshot{
				Lists: []trust.ListState{tlState("DE", trust.EUEIDAS, inter.DER)},
				PrivateCA: trust.PrivateCA{Enabled: true, Anchors: []trust.PrivateAnchor{
					{Subject: "root", Certificate: root.DER}, {Subject: "broken", Certificate: []byte{0x30}},
				}},
			},
			want: []view{
				{"SVC DSS Test Issuing CA", trust.EUEIDAS, "DE", false, trust.TypeCAQC, false},
				{"SVC DSS Test Root CA", trust.Unknown, "", true, 0, false},
			},
		},
		{
			name: "private CA disabled",
			snap: &trust.Snapshot{PrivateCA: trust.PrivateCA{Anchors: []trust.PrivateAnchor{{Certificate: root.DER}}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			var got []view
			for _, a := range certpath.AnchorsFrom(tt.snap, x509.ParseCertificate) {
				v := view{a.Certificate.Subject.CommonName, a.Framework, a.Territory, a.Private, 0, a.SwissListed}
				if a.Service != nil {
					v.Type = a.Service.Type
				}
				is.Equal(a.Private, a.Service == nil)
				got = append(got, v)
			}
			is.Equal(got, tt.want)
		})
	}
}

// TestAnchorsCarryTheirListsAuthenticity: each anchor is authenticated by
// the copy of the list it came from, not by the first list of its
// territory (two lists may share one: an MRA third-country list and a
// member list, say).
func TestAnchorsCarryTheirListsAuthenticity(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fx(t)
	notChecked := tlState("DE", trust.EUEIDAS, p.Root.DER)
	notChecked.Authenticity = trust.AuthNotChecked
	valid := tlState("DE", trust.EUEIDAS, p.Intermediate.DER)
	valid.Authenticity = trust.AuthValid
	for _, order := range [][]trust.ListState{{notChecked, valid}, {valid, notChecked}} {
		got := map[string]bool{}
		for _, a := range certpath.AnchorsFrom(&trust.Snapshot{Lists: order}, x509.ParseCertificate) {
			got[a.Certificate.Subject.CommonName] = a.Authenticated
		}
		is.Equal(got, map[string]bool{"SVC DSS Test Root CA": false, "SVC DSS Test Issuing CA": true})
	}
}

// TestSwissPrecedence: the same root on an EU and on the Swiss list; the
// first path runs the Swiss branch, whatever the order of the lists.
func TestSwissPrecedence(t *testing.T) {
	t.Parallel()
	p := fx(t)
	snaps := map[string]*trust.Snapshot{
		"EU list first": {Lists: []trust.ListState{
			tlState("DE", trust.EUEIDAS, p.Root.DER), tlState("CH", trust.CHZERTES, p.Root.DER),
		}},
		"CH list first": {Lists: []trust.ListState{
			tlState("CH", trust.CHZERTES, p.Root.DER), tlState("DE", trust.EUEIDAS, p.Root.DER),
		}},
	}
	for name, snap := range snaps {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			paths, err := certpath.Build(p.SignerRSAQC.Certificate, certpath.Options{
				Intermediates: []*x509.Certificate{p.Intermediate.Certificate},
				Anchors:       certpath.AnchorsFrom(snap, x509.ParseCertificate),
			})
			is.NoErr(err)
			is.Equal(len(paths), 2)
			is.Equal(paths[0].Anchor.Framework, trust.CHZERTES)
			is.Equal(paths[0].Anchor.Territory, "CH")
			is.Equal(paths[1].Anchor.Framework, trust.EUEIDAS)
			is.True(paths[1].Anchor.SwissListed)
			is.Equal(paths[0].Anchor.Service.Status, trust.StatusGranted)
		})
	}
}

// TestPrivateAnchor: a path to a private anchor has framework UNKNOWN.
func TestPrivateAnchor(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fx(t)
	snap := &trust.Snapshot{PrivateCA: trust.PrivateCA{Enabled: true, Anchors: []trust.PrivateAnchor{{Certificate: p.Root.DER}}}}
	paths, err := certpath.Build(p.SignerECDSA.Certificate, certpath.Options{
		Intermediates: []*x509.Certificate{p.Intermediate.Certificate},
		Anchors:       certpath.AnchorsFrom(snap, x509.ParseCertificate),
	})
	is.NoErr(err)
	is.Equal(len(paths), 1)
	is.Equal(paths[0].Anchor.Framework, trust.Unknown)
	is.True(paths[0].Anchor.Private)

	// Without the anchor there is no chain.
	_, err = certpath.Build(p.SignerECDSA.Certificate, certpath.Options{Intermediates: []*x509.Certificate{p.Intermediate.Certificate}})
	var nc *certpath.NoChainError
	is.True(errors.As(err, &nc))
}

// EN 319 102-1 and TS 119 615, decision 0018: an anchor's service must be
// in an approved status at the time the object existed; a withdrawal
// after that time leaves the anchor trusted, and a private anchor has no
// status to judge.
func TestAnchorNotApprovedAt(t *testing.T) {
	t.Parallel()
	year := func(y int) time.Time { return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC) }
	withdrawnIn := func(y int) *trust.Service {
		return &trust.Service{Name: "CA", Status: trust.StatusWithdrawn, StatusStart: year(y),
			History: []trust.StatusPeriod{{Status: trust.StatusGranted, Start: year(2017)}}}
	}
	tests := []struct {
		name    string
		anchor  certpath.Anchor
		at      time.Time
		refused bool
		status  trust.Status
	}{
		{"granted, then withdrawn after the time", certpath.Anchor{Service: withdrawnIn(2022)}, year(2020), false, 0},
		{"withdrawn before the time", certpath.Anchor{Service: withdrawnIn(2022)}, year(2023), true, trust.StatusWithdrawn},
		{"withdrawn at the time", certpath.Anchor{Service: withdrawnIn(2022)}, year(2022), true, trust.StatusWithdrawn},
		{"before any status", certpath.Anchor{Service: withdrawnIn(2022)}, year(2010), false, 0},
		{"pre-eIDAS accredited", certpath.Anchor{Service: &trust.Service{Status: trust.StatusAccredited, StatusStart: year(2010)}}, year(2012), false, 0},
		{"supervision ceased", certpath.Anchor{Service: &trust.Service{Status: trust.StatusSupervisionCeased, StatusStart: year(2010)}}, year(2012), true, trust.StatusSupervisionCeased},
		{"deprecated at national level", certpath.Anchor{Service: &trust.Service{Status: trust.StatusDeprecatedAtNational, StatusStart: year(2010)}}, year(2012), true, trust.StatusDeprecatedAtNational},
		{"private anchor", certpath.Anchor{Private: true}, year(2023), false, 0},
		{"no service", certpath.Anchor{}, year(2023), false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			p, refused := tt.anchor.NotApprovedAt(tt.at)
			is.Equal(refused, tt.refused)
			is.Equal(p.Status, tt.status)
		})
	}
}
