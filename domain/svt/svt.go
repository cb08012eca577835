package svt

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/verdict"
)

// Identifiers of the token.
const (
	// Version is sig_val_claims.ver (RFC 9321, 3.2).
	Version = "1.0"
	// HashAlgorithm is hash_algo: every hash of the token is SHA-256.
	HashAlgorithm = "http://www.w3.org/2001/04/xmlenc#sha256"
	// Policy names the validation the results come from: EN 319 102-1 as
	// this validator runs it (docs/decisions/0018).
	Policy = "urn:svc-dss:validation-policy:en-319-102-1"
	// ProfileCMS is the profile of signatures RFC 9321 has none for.
	ProfileCMS = "urn:svc-dss:svt:profile:cms"
	// Type is the JWS typ header of a token (RFC 9321, 3.1).
	Type = "JWT"
)

// Results of a policy validation (RFC 9321, 3.2.3).
const (
	ResultPassed        = "PASSED"
	ResultFailed        = "FAILED"
	ResultIndeterminate = "INDETERMINATE"
)

// ErrNoSignature: a token states results of signatures, at least one
// (RFC 9321, 3.2: sig has one item or more).
var ErrNoSignature = errors.New("svt: the document holds no signature, and a Signature Validation Token states the validation of at least one")

// Claims are the token's payload (RFC 9321, 3).
type Claims struct {
	JTI          string       `json:"jti"`
	Issuer       string       `json:"iss"`
	IssuedAt     int64        `json:"iat"`
	SigValClaims SigValClaims `json:"sig_val_claims"`
}

// SigValClaims are the signature validation claims.
type SigValClaims struct {
	Version       string            `json:"ver"`
	Profile       string            `json:"profile"`
	HashAlgorithm string            `json:"hash_algo"`
	Signatures    []Signature       `json:"sig"`
	Ext           map[string]string `json:"ext,omitempty"`
}

// Signature is what the token says of one signature.
type Signature struct {
	SigRef        SigRef             `json:"sig_ref"`
	SigDataRef    []SigDataRef       `json:"sig_data_ref"`
	SignerCertRef CertRef            `json:"signer_cert_ref"`
	SigVal        []PolicyValidation `json:"sig_val"`
	TimeVal       []TimeValidation   `json:"time_val,omitempty"`
}

// SigRef names the signature.
type SigRef struct {
	ID      string `json:"id,omitempty"`
	SigHash string `json:"sig_hash,omitempty"`
	SBHash  string `json:"sb_hash,omitempty"`
}

// SigDataRef names data the signature covers.
type SigDataRef struct {
	Ref  string `json:"ref"`
	Hash string `json:"hash"`
}

// CertRef names the signer's certificates.
type CertRef struct {
	Type string   `json:"type"`
	Ref  []string `json:"ref"`
}

// PolicyValidation is a result under a policy.
type PolicyValidation struct {
	Policy string            `json:"pol"`
	Result string            `json:"res"`
	Msg    string            `json:"msg,omitempty"`
	Ext    map[string]string `json:"ext,omitempty"`
}

// TimeValidation is a verified time of the signature.
type TimeValidation struct {
	Time   int64              `json:"time"`
	Type   string             `json:"type"`
	Issuer string             `json:"iss"`
	Val    []PolicyValidation `json:"val"`
}

// Token are the givens of a token besides the validation.
type Token struct {
	// ID is the jti, unique per token.
	ID string
	// Issuer is the iss: the validator, as its seal names it.
	Issuer   string
	IssuedAt time.Time
}

// New returns the claims of a token t on v.
func New(t Token, v report.Validation) (Claims, error) {
	if len(v.Summary.Signatures) == 0 {
		return Claims{}, ErrNoSignature
	}
	if len(v.Signatures) != len(v.Summary.Signatures) {
		return Claims{}, fmt.Errorf("svt: %d signatures of evidence for %d in the summary", len(v.Signatures), len(v.Summary.Signatures))
	}
	c := Claims{JTI: t.ID, Issuer: t.Issuer, IssuedAt: t.IssuedAt.Unix(), SigValClaims: SigValClaims{
		Version: Version, HashAlgorithm: HashAlgorithm, Profile: profile(v.Signatures),
		Signatures: make([]Signature, len(v.Signatures)),
		Ext:        documentExt(v),
	}}
	for i, s := range v.Signatures {
		c.SigValClaims.Signatures[i] = signature(s, v.Summary.Signatures[i])
	}
	return c, nil
}

// profile is the token's profile: that of the format all signatures
// share, ProfileCMS otherwise.
func profile(sigs []report.Signature) string {
	p := ""
	for i, s := range sigs {
		var q string
		switch s.Evidence.Format {
		case ades.PAdES:
			q = "PDF"
		case ades.XAdES:
			q = "XML"
		case ades.JAdES:
			q = "JWS"
		default:
			q = ProfileCMS
		}
		if i > 0 && q != p {
			return ProfileCMS
		}
		p = q
	}
	return p
}

func signature(s report.Signature, r verdict.SignatureReport) Signature {
	out := Signature{
		SigRef:        SigRef{ID: r.SignatureID, SigHash: b64(digest(s.Evidence.SignatureValue)), SBHash: b64(s.Evidence.SignedBytesSHA256)},
		SigDataRef:    []SigDataRef{},
		SignerCertRef: CertRef{Type: "chain_hash", Ref: []string{}},
		SigVal:        []PolicyValidation{{Policy: Policy, Result: result(r.Indication), Msg: message(r), Ext: verdictExt(r)}},
	}
	for _, d := range s.Evidence.DataObjects {
		if d.Found && d.DigestAlgorithm == "SHA-256" && len(d.Digest) > 0 {
			out.SigDataRef = append(out.SigDataRef, SigDataRef{Ref: d.Name, Hash: b64(d.Digest)})
		}
	}
	var chain []*x509.Certificate
	switch {
	case s.Result.Path != nil:
		chain = s.Result.Path.Certificates
	case s.Evidence.SigningCertificate != nil:
		chain = []*x509.Certificate{s.Evidence.SigningCertificate}
	}
	for _, c := range chain {
		sum := sha256.Sum256(c.Raw)
		out.SignerCertRef.Ref = append(out.SignerCertRef.Ref, b64(sum[:]))
	}
	for _, ts := range s.Result.Timestamps {
		tv := TimeValidation{Time: ts.GenTime.Unix(), Type: "urn:svc-dss:svt:time:" + ts.Type.String(),
			Val: []PolicyValidation{{Policy: Policy, Result: ResultPassed}}}
		if ts.Path != nil && ts.Path.Leaf() != nil {
			tv.Issuer = ts.Path.Leaf().Subject.String()
		}
		out.TimeVal = append(out.TimeVal, tv)
	}
	return out
}

// result is the policy result of an indication.
func result(i verdict.Indication) string {
	switch i {
	case verdict.TotalPassed, verdict.Passed:
		return ResultPassed
	case verdict.TotalFailed, verdict.Failed:
		return ResultFailed
	}
	return ResultIndeterminate
}

// message is the sub-indication and the first error, for a reader of
// the token: empty when the signature passed.
func message(r verdict.SignatureReport) string {
	var parts []string
	if r.SubIndication != nil {
		parts = append(parts, r.SubIndication.String())
	}
	if len(r.Errors) > 0 {
		parts = append(parts, r.Errors[0].Message)
	}
	return strings.Join(parts, ": ")
}

// verdictExt is the JSON verdict of one signature in the strings ext
// holds.
func verdictExt(r verdict.SignatureReport) map[string]string {
	ext := map[string]string{
		"indication":       r.Indication.String(),
		"signature_format": r.SignatureFormat,
		"trust_framework":  r.TrustFramework,
	}
	set := func(k string, v *string) {
		if v != nil {
			ext[k] = *v
		}
	}
	if r.SubIndication != nil {
		ext["sub_indication"] = r.SubIndication.String()
	}
	set("anchor_country", r.AnchorCountry)
	set("eidas_qualification", r.EIDASQualification)
	set("swiss_qualification", r.SwissQualification)
	if r.HandwrittenEquivalent != nil {
		ext["handwritten_equivalent"] = strconv.FormatBool(*r.HandwrittenEquivalent)
	}
	if codes := messageCodes(r.Errors); codes != "" {
		ext["errors"] = codes
	}
	if codes := messageCodes(r.Warnings); codes != "" {
		ext["warnings"] = codes
	}
	return ext
}

func messageCodes(ms []verdict.Message) string {
	codes := make([]string, len(ms))
	for i, m := range ms {
		codes[i] = m.Code
	}
	return strings.Join(codes, " ")
}

// documentExt names the document and the trust data the verdict was
// judged against.
func documentExt(v report.Validation) map[string]string {
	td := v.Summary.TrustData
	ext := map[string]string{
		"document_name":       v.Summary.DocumentName,
		"document_sha256":     v.Summary.DocumentSHA256,
		"document_valid":      strconv.FormatBool(v.Summary.Valid),
		"validation_time":     v.ValidationTime.UTC().Format(time.RFC3339),
		"trust_state":         td.State,
		"trust_current":       strconv.FormatBool(td.Current),
		"trust_authenticated": strconv.FormatBool(td.AnchorDataAuthenticated),
		"trust_evaluated_at":  td.EvaluatedAt.UTC().Format(time.RFC3339),
	}
	var lists []string
	for _, l := range td.Lists {
		s := l.Territory + " " + l.Kind + " " + l.State
		if l.Authenticity != "" {
			s += " " + l.Authenticity
		}
		if l.SequenceNumber != nil {
			s += " seq " + strconv.Itoa(*l.SequenceNumber)
		}
		lists = append(lists, s)
	}
	ext["trust_lists"] = strings.Join(lists, "; ")
	if td.Snapshot != nil {
		// The exact lists and anchors, by digest (trustData.snapshot):
		// what a later reader needs to reproduce the verdict.
		ext["trust_snapshot_sha256"] = td.Snapshot.SHA256
	}
	return ext
}

// digest is the SHA-256 of b, nil for no bytes (a reader that keeps no
// signature value).
func digest(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	sum := sha256.Sum256(b)
	return sum[:]
}

// b64 is base64 with padding, as RFC 9321 writes hashes; "" for none.
func b64(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return base64.StdEncoding.EncodeToString(b)
}
