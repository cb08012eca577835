package validation_test

import (
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/xades"
)

// Issue 22, "A broken time-stamp is not a broken signature", for PAdES
// through the front door: a signature time-stamp whose imprint does not
// match or whose token does not verify, a content time-stamp over other
// data and a document time-stamp over other bytes each leave the
// signature judged on its own value and byte range (TOTAL_PASSED); the
// time-stamp is a warning and gives no proof of existence. (The CAdES
// cases are in TestValidateFixtureGrid, XAdES and JAdES in their grids.)
func TestPAdESBrokenTimestampIsNotABrokenSignature(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	signedAt := s.at.Add(-2 * time.Hour)
	tests := []struct {
		name     string
		level    cades.Level
		defect   cades.Defect
		docTS    bool // DSS and a document time-stamp over other bytes
		format   string
		warnings []string
	}{
		{"signature time-stamp over other data", cades.T, cades.BrokenSignatureTimestamp, false, "PAdES_BASELINE_T", []string{"TIMESTAMP_INVALID", "LEVEL_NOT_SUPPORTED_BY_EVIDENCE"}},
		{"signature time-stamp whose token does not verify", cades.T, cades.BrokenTimestampToken, false, "PAdES_BASELINE_T", []string{"TIMESTAMP_INVALID", "LEVEL_NOT_SUPPORTED_BY_EVIDENCE"}},
		{"content time-stamp over other data", cades.B, cades.BrokenContentTimestamp, false, "PAdES_BASELINE_B", []string{"TIMESTAMP_INVALID"}},
		{"document time-stamp over other bytes", cades.T, cades.NoDefect, true, "PAdES_BASELINE_LTA", []string{"ARCHIVE_TIMESTAMP_INVALID", "LEVEL_NOT_SUPPORTED_BY_EVIDENCE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			d := pades.New(1)
			is.NoErr(d.Sign(pades.Options{PKI: p, Signer: p.SignerRSA, Level: tt.level, SigningTime: signedAt, TimestampDefect: tt.defect}))
			if tt.docTS {
				is.NoErr(d.AddDSS(pades.DSSOptions{PKI: p, At: signedAt.Add(time.Hour)}))
				is.NoErr(d.AddDocumentTimestamp(pades.TimestampOptions{PKI: p, At: signedAt.Add(90 * time.Minute), BrokenImprint: true}))
			}
			sum, err := validate(s.v, validation.Document{Name: "doc.pdf", Data: d.Bytes()}, s.at)
			is.NoErr(err)
			is.Equal(sum.SignatureCount, 1)
			got := sum.Signatures[0]
			t.Logf("%s %s %v warnings=%v errors=%v", got.Indication, got.SignatureFormat, deref(got.SubIndication), codes(got.Warnings), codes(got.Errors))
			is.Equal(got.Indication, verdict.TotalPassed) // the signature is judged on its own
			is.Equal(got.SignatureFormat, tt.format)
			for _, w := range tt.warnings {
				is.True(slices.Contains(codes(got.Warnings), w)) // the time-stamp's warning
			}
		})
	}
}

// Issue 22, TIMESTAMP_ORDER_FAILURE (EN 319 102-1, 5.5.4 and 5.6.3; DSS's
// time-stamp coherence order): content time-stamps precede signature
// time-stamps, which precede archive time-stamps. CAdES fixtures through
// the front door: a content time-stamp after the signature time-stamp and
// an archive time-stamp before it are INDETERMINATE/TIMESTAMP_ORDER_FAILURE;
// the ordinary order, equal times and a broken time-stamp out of order
// (it proves nothing, so it contradicts nothing) are unchanged.
func TestCAdESTimestampOrder(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	content := []byte("time-stamps in order\n")
	tsTime := signedYesterday.Add(time.Minute) // the fixture's default
	tests := []struct {
		name string
		opts cades.Options
		want outcome
	}{
		{"content, signature, archive in order", cades.Options{Level: cades.LTA, ContentTimestamp: true}, passed(formatLTA)},
		{"content time-stamp at the signature time-stamp's time", cades.Options{Level: cades.T, ContentTimestamp: true, ContentTimestampTime: tsTime}, passed(formatT)},
		{"content time-stamp after the signature time-stamp", cades.Options{Level: cades.T, ContentTimestamp: true, ContentTimestampTime: tsTime.Add(time.Minute)},
			failed(verdict.Indeterminate, verdict.SubTimestampOrderFailure, formatT)},
		{"content time-stamp after the archive time-stamp", cades.Options{Level: cades.LTA, ContentTimestamp: true, ContentTimestampTime: tsTime.Add(time.Hour)},
			failed(verdict.Indeterminate, verdict.SubTimestampOrderFailure, formatLTA)},
		{"archive time-stamp before the signature time-stamp", cades.Options{Level: cades.LTA, ArchiveTime: tsTime.Add(-30 * time.Second)},
			failed(verdict.Indeterminate, verdict.SubTimestampOrderFailure, formatLTA)},
		{"a broken content time-stamp after the signature time-stamp", cades.Options{Level: cades.T, Defect: cades.BrokenContentTimestamp, ContentTimestampTime: tsTime.Add(time.Minute)},
			passed(formatT, "TIMESTAMP_INVALID")},
		{"a broken signature time-stamp after the archive time-stamp", cades.Options{Level: cades.LTA, Defect: cades.BrokenSignatureTimestamp, TimestampTime: signedYesterday.Add(time.Hour)},
			passed(formatLTA, "TIMESTAMP_INVALID")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			o := tt.opts
			o.SigningTime = signedYesterday
			sig := s.sign(t, content, o)
			sum, err := validate(s.v, document(sig, content, false), s.at)
			is.NoErr(err)
			is.Equal(sum.SignatureCount, 1)
			got := sum.Signatures[0]
			t.Logf("%s %s %v warnings=%v errors=%v", got.Indication, got.SignatureFormat, deref(got.SubIndication), codes(got.Warnings), codes(got.Errors))
			is.Equal(got.Indication, tt.want.indication)              // indication
			is.Equal(deref(got.SubIndication), tt.want.subIndication) // subIndication
			is.Equal(got.SignatureFormat, tt.want.format)             // signatureFormat
			for _, w := range tt.want.warnings {
				is.True(slices.Contains(codes(got.Warnings), w)) // expected warning present
			}
		})
	}
}

// The same ordering for XAdES through the front door: an
// AllDataObjectsTimeStamp after the SignatureTimeStamp, an
// ArchiveTimeStamp before it, and the ordinary order.
func TestXAdESTimestampOrder(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	content := []byte("<doc>time-stamps in order</doc>")
	tsTime := signedYesterday.Add(time.Hour)
	tests := []struct {
		name   string
		opts   xades.Options
		format string
		sub    verdict.SubIndication // "" for TOTAL_PASSED
	}{
		{"content, signature, archive in order", xades.Options{Level: xades.LTA, AllDataObjectsTimestamp: true}, "XAdES_BASELINE_LTA", ""},
		{"content time-stamp after the signature time-stamp", xades.Options{Level: xades.T, AllDataObjectsTimestamp: true, ContentTimestampTime: tsTime.Add(time.Minute)},
			"XAdES_BASELINE_T", verdict.SubTimestampOrderFailure},
		{"archive time-stamp before the signature time-stamp", xades.Options{Level: xades.LTA, ArchiveTime: tsTime.Add(-time.Minute)}, "XAdES_BASELINE_LTA", verdict.SubTimestampOrderFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			o := tt.opts
			o.PKI, o.Signer, o.SigningTime, o.TimestampTime = p, p.SignerRSA, signedYesterday, tsTime
			sig, err := xades.Sign(content, o)
			is.NoErr(err)
			sum, err := validate(s.v, validation.Document{Name: "signature.xml", Data: sig}, s.at)
			is.NoErr(err)
			is.Equal(sum.SignatureCount, 1)
			got := sum.Signatures[0]
			t.Logf("%s %s %v warnings=%v errors=%v", got.Indication, got.SignatureFormat, deref(got.SubIndication), codes(got.Warnings), codes(got.Errors))
			is.Equal(got.SignatureFormat, tt.format)
			if tt.sub == "" {
				is.Equal(got.Indication, verdict.TotalPassed)
				return
			}
			is.Equal(got.Indication, verdict.Indeterminate)
			is.Equal(deref(got.SubIndication), tt.sub)
		})
	}
}

// And for JAdES: an arcTst before the sigTst it covers, and the ordinary
// order.
func TestJAdESTimestampOrder(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	content := []byte(`{"order":"time-stamps in order"}`)
	tsTime := signedYesterday.Add(time.Hour)
	tests := []struct {
		name    string
		archive time.Time // zero: the fixture's default, after the sigTst
		sub     verdict.SubIndication
	}{
		{"sigTst, then arcTst", time.Time{}, ""},
		{"arcTst before the sigTst", tsTime.Add(-time.Minute), verdict.SubTimestampOrderFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig, _, err := jades.Sign(content, jades.Options{PKI: p, Signer: p.SignerRSA, Level: jades.LTA, SigningTime: signedYesterday,
				TimestampTime: tsTime, ArchiveTime: tt.archive})
			is.NoErr(err)
			sum, err := validate(s.v, validation.Document{Name: "signature.json", Data: sig}, s.at)
			is.NoErr(err)
			is.Equal(sum.SignatureCount, 1)
			got := sum.Signatures[0]
			t.Logf("%s %s %v warnings=%v errors=%v", got.Indication, got.SignatureFormat, deref(got.SubIndication), codes(got.Warnings), codes(got.Errors))
			is.Equal(got.SignatureFormat, "JAdES_BASELINE_LTA")
			if tt.sub == "" {
				is.Equal(got.Indication, verdict.TotalPassed)
				return
			}
			is.Equal(got.Indication, verdict.Indeterminate)
			is.Equal(deref(got.SubIndication), tt.sub)
		})
	}
}

// And for PAdES: a document time-stamp after the DSS, an archive
// time-stamp of the signature (LTA), generated before the signature
// time-stamp of the CMS it covers; and after it. (A document time-stamp
// with no DSS before it is the signature's signature time-stamp, as DSS
// reads it: two signature time-stamps are not ordered.)
func TestPAdESTimestampOrder(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	signedAt := s.at.Add(-2 * time.Hour) // the signature time-stamp a minute later
	tests := []struct {
		name string
		at   time.Time // of the document time-stamp
		sub  verdict.SubIndication
	}{
		{"document time-stamp after the signature time-stamp", signedAt.Add(time.Hour), ""},
		{"document time-stamp before the signature time-stamp", signedAt, verdict.SubTimestampOrderFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			d := pades.New(1)
			is.NoErr(d.Sign(pades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.T, SigningTime: signedAt}))
			is.NoErr(d.AddDSS(pades.DSSOptions{PKI: p, At: signedAt.Add(30 * time.Minute)}))
			is.NoErr(d.AddDocumentTimestamp(pades.TimestampOptions{PKI: p, At: tt.at}))
			sum, err := validate(s.v, validation.Document{Name: "doc.pdf", Data: d.Bytes()}, s.at)
			is.NoErr(err)
			is.Equal(sum.SignatureCount, 1)
			got := sum.Signatures[0]
			t.Logf("%s %s %v warnings=%v errors=%v", got.Indication, got.SignatureFormat, deref(got.SubIndication), codes(got.Warnings), codes(got.Errors))
			is.Equal(got.SignatureFormat, "PAdES_BASELINE_LTA")
			if tt.sub == "" {
				is.Equal(got.Indication, verdict.TotalPassed)
				return
			}
			is.Equal(got.Indication, verdict.Indeterminate)
			is.Equal(deref(got.SubIndication), tt.sub)
		})
	}
}
