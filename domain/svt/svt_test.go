package svt_test

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/svt"
	"github.com/svc-dss/dss/domain/verdict"
)

var token = svt.Token{ID: "id-1", Issuer: "https://validator.example.ch", IssuedAt: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}

// validation is a document whose signatures have formats fs and
// indications is.
func validation(fs []ades.Format, inds []verdict.Indication) report.Validation {
	var v report.Validation
	v.Summary.DocumentName, v.Summary.DocumentSHA256 = "contract.pdf", "ab12"
	for i, f := range fs {
		v.Signatures = append(v.Signatures, report.Signature{Evidence: ades.Signature{ID: "S-" + string(rune('a'+i)), Format: f,
			SignatureValue: []byte{1, 2, 3}, DataObjects: []ades.DataObject{
				{Name: "content", Found: true, DigestAlgorithm: "SHA-256", Digest: []byte{4, 5, 6}},
				{Name: "old", Found: true, DigestAlgorithm: "SHA-1", Digest: []byte{7}},
			}}})
		r := verdict.SignatureReport{SignatureID: "S-" + string(rune('a'+i)), Indication: inds[i]}
		if inds[i] != verdict.TotalPassed {
			sub := verdict.SubHashFailure
			r.SubIndication = &sub
			r.Errors = []verdict.Message{{Code: "HASH_FAILURE", Message: "the document was changed"}}
		}
		v.Summary.Signatures = append(v.Summary.Signatures, r)
	}
	return v
}

// TestNew: the profile follows the signatures' format, each result its
// indication, and only SHA-256 digests are data references.
func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		formats []ades.Format
		inds    []verdict.Indication
		profile string
		res     []string
		msg     string
	}{
		{"PAdES passed", []ades.Format{ades.PAdES}, []verdict.Indication{verdict.TotalPassed}, "PDF", []string{"PASSED"}, ""},
		{"XAdES failed", []ades.Format{ades.XAdES}, []verdict.Indication{verdict.TotalFailed}, "XML", []string{"FAILED"}, "HASH_FAILURE: the document was changed"},
		{"JAdES indeterminate", []ades.Format{ades.JAdES}, []verdict.Indication{verdict.Indeterminate}, "JWS", []string{"INDETERMINATE"}, "HASH_FAILURE: the document was changed"},
		{"CAdES", []ades.Format{ades.CAdES}, []verdict.Indication{verdict.TotalPassed}, svt.ProfileCMS, []string{"PASSED"}, ""},
		{"mixed", []ades.Format{ades.PAdES, ades.CAdES}, []verdict.Indication{verdict.TotalPassed, verdict.TotalPassed}, svt.ProfileCMS, []string{"PASSED", "PASSED"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			c, err := svt.New(token, validation(tt.formats, tt.inds))
			is.NoErr(err)
			is.Equal(c.JTI, "id-1")
			is.Equal(c.IssuedAt, token.IssuedAt.Unix())
			is.Equal(c.SigValClaims.Profile, tt.profile)
			is.Equal(c.SigValClaims.Ext["document_sha256"], "ab12")
			for i, s := range c.SigValClaims.Signatures {
				is.Equal(s.SigVal[0].Result, tt.res[i])
				is.Equal(s.SigVal[0].Msg, tt.msg)
				is.Equal(s.SigRef.SigHash, "A5BYxvLAy0ksUzsKTRTvd8wPeKvMztUofYShogEc+4E=") // SHA-256 of 1, 2, 3
				is.Equal(s.SigDataRef, []svt.SigDataRef{{Ref: "content", Hash: "BAUG"}})   // SHA-1 left out
			}
		})
	}
}

// TestNewWithoutSignature: a token needs a signature to speak of.
func TestNewWithoutSignature(t *testing.T) {
	is := is.New(t)
	_, err := svt.New(token, report.Validation{})
	is.True(errors.Is(err, svt.ErrNoSignature))
	is.Equal(err.Error(), "svt: the document holds no signature, and a Signature Validation Token states the validation of at least one")
}
