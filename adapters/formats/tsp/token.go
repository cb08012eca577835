package tsp

import (
	"bytes"
	"crypto"
	"crypto/subtle"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"io"
	"slices"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cms"
)

// A Token is a parsed time-stamp token.
type Token struct {
	SignedData *cms.SignedData
	Signer     *cms.SignerInfo // the only SignerInfo
	Info       *TSTInfo

	// Wrapped reports a token that came wrapped in an OCTET STRING.
	Wrapped bool
	// Raw is the ContentInfo read, without the OCTET STRING around a
	// wrapped token and, for a DER one, without the padding after it (a
	// PDF /Contents is zero-padded).
	Raw []byte
}

// Parse reads a TimeStampToken (a ContentInfo, DER or BER): a SignedData
// with eContentType id-ct-TSTInfo, attached content and exactly one
// signer (RFC 3161, section 2.4.2). It checks no signature.
//
// A token wrapped in an OCTET STRING, as some CAdES signers put it in the
// signature-time-stamp attribute (ETSI plugtest sample DE CRY-4), is
// unwrapped and Wrapped is set.
func Parse(token []byte) (*Token, error) {
	wrapped := false
	in := cryptobyte.String(token)
	var inner cryptobyte.String
	if in.ReadASN1(&inner, cbasn1.OCTET_STRING) && in.Empty() && len(inner) > 0 && inner[0] == 0x30 {
		token, wrapped = inner, true
	}
	sd, err := cms.Parse(token)
	if err != nil {
		return nil, fmt.Errorf("tsp: token: %w", err)
	}
	if !sd.ContentType.Equal(cms.OIDTSTInfo) {
		return nil, fmt.Errorf("%w: content type %v is not id-ct-TSTInfo", ErrMalformed, sd.ContentType)
	}
	if sd.Content == nil {
		return nil, fmt.Errorf("%w: token without TSTInfo", ErrMalformed)
	}
	if len(sd.SignerInfos) != 1 {
		return nil, fmt.Errorf("%w: token with %d signers", ErrMalformed, len(sd.SignerInfos))
	}
	info, err := ParseTSTInfo(sd.Content)
	if err != nil {
		return nil, err
	}
	return &Token{SignedData: sd, Signer: sd.SignerInfos[0], Info: info, Wrapped: wrapped, Raw: element(token)}, nil
}

// VerifyOptions are the inputs of Token.Verify besides the token.
type VerifyOptions struct {
	// Certificates are TSA certificate candidates besides those in the
	// token: a CAdES signature's certificates or certificate-values, or
	// the TSA certificate from a trusted list.
	Certificates []*x509.Certificate
}

// Verify checks the signature of t and its ESS signing-certificate
// attribute, and returns the TSA certificate. It does not check the
// message imprint (CheckImprint, CheckImprintDigest) nor whether the TSA
// is trusted.
//
// It follows the order of ETSI EN 319 102-1: first the signing
// certificate is identified by the ESS attribute (protected by the
// signature, unlike the signer identifier) among the token's and the
// supplied certificates, then the signature is checked with it. Errors:
//
//   - ErrNoSigningCertificate: the token has no ESS attribute (the
//     signature was checked with the certificate the signer identifier
//     names, which is returned when it verifies).
//   - cms.ErrSignerNotFound: the certificate the ESS attribute names is
//     not available (and no available one verifies).
//   - ErrSigningCertificateMismatch: a certificate verifies the signature
//     but the ESS attribute or the signer identifier names another one.
//   - cms.ErrDigestMismatch (the TSTInfo was altered),
//     cms.ErrSignatureInvalid, cms.ErrContentTypeMismatch,
//     cms.ErrUnsupported, cms.ErrMalformed: the signature check failed.
func (t *Token) Verify(opts VerifyOptions) (*x509.Certificate, error) {
	ids, err := t.Signer.SigningCertificate()
	if err != nil {
		return nil, fmt.Errorf("tsp: ESS signing-certificate: %w", err)
	}
	if len(ids) == 0 {
		c, err := t.verifyBySignerID(opts)
		if err != nil {
			return c, err
		}
		return c, ErrNoSigningCertificate
	}
	var named *x509.Certificate
	for _, pool := range [][]*x509.Certificate{t.SignedData.Certificates, opts.Certificates} {
		for _, c := range pool {
			// The first identifier is the signer's (RFC 5035, 5.4.1.1).
			if named == nil && ids[0].Matches(c) {
				named = c
			}
		}
	}
	if named == nil {
		c, err := t.verifyBySignerID(opts)
		if err == nil {
			return c, fmt.Errorf("%w: %q verifies the signature, the attribute names another certificate", ErrSigningCertificateMismatch, c.Subject.String())
		}
		return nil, fmt.Errorf("tsp: %w: the certificate the ESS signing-certificate attribute names is not available", cms.ErrSignerNotFound)
	}
	d, err := cms.DigestContent(bytes.NewReader(t.SignedData.Content), t.Signer.Hashes()...)
	if err != nil {
		return named, fmt.Errorf("tsp: %w", err)
	}
	if err := t.Signer.CheckMessageDigest(d); err != nil {
		return named, fmt.Errorf("tsp: token signature: %w", err)
	}
	if err := t.Signer.CheckContentType(cms.OIDTSTInfo); err != nil {
		return named, fmt.Errorf("tsp: token signature: %w", err)
	}
	if err := t.Signer.CheckSignature(named.PublicKey, d); err != nil {
		return named, fmt.Errorf("tsp: token signature: %w", err)
	}
	if !t.Signer.SID.Matches(named) {
		return named, fmt.Errorf("%w: the signer identifier names %v", ErrSigningCertificateMismatch, t.Signer.SID)
	}
	return named, nil
}

// verifyBySignerID checks the signature with the certificates the signer
// identifier names.
func (t *Token) verifyBySignerID(opts VerifyOptions) (*x509.Certificate, error) {
	results, err := t.SignedData.Verify(cms.VerifyOptions{Certificates: opts.Certificates})
	if err != nil {
		return nil, fmt.Errorf("tsp: %w", err)
	}
	if err := results[0].Err(); err != nil {
		return results[0].Certificate, fmt.Errorf("tsp: token signature: %w", err)
	}
	return results[0].Certificate, nil
}

// CheckImprint checks that the message imprint is the hash of data.
func (t *Token) CheckImprint(data []byte) error {
	return t.CheckImprintReader(bytes.NewReader(data))
}

// CheckImprintReader checks that the message imprint is the hash of what r
// yields.
func (t *Token) CheckImprintReader(r io.Reader) error {
	h := t.Info.MessageImprint.Hash
	if h == 0 || !h.Available() {
		return fmt.Errorf("%w: message imprint hash algorithm", ErrUnsupported)
	}
	hh := h.New()
	if _, err := io.Copy(hh, r); err != nil {
		return fmt.Errorf("tsp: reading time-stamped data: %w", err)
	}
	return t.CheckImprintDigest(hh.Sum(nil))
}

// CheckImprintDigest compares the message imprint with digest, computed by
// the caller with t.Info.MessageImprint.Hash.
func (t *Token) CheckImprintDigest(digest []byte) error {
	if subtle.ConstantTimeCompare(digest, t.Info.MessageImprint.HashedMessage) != 1 {
		return fmt.Errorf("%w: the token time-stamps %x", ErrImprintMismatch, t.Info.MessageImprint.HashedMessage)
	}
	return nil
}

// Verify parses token, checks its signature and ESS signing-certificate
// (Token.Verify) and its message imprint against imprintOf, which returns
// the digest of the time-stamped data under the hash the token names. On
// error the token is returned when it parsed.
func Verify(token []byte, imprintOf func(crypto.Hash) ([]byte, error), opts VerifyOptions) (*Token, *x509.Certificate, error) {
	t, err := Parse(token)
	if err != nil {
		return nil, nil, err
	}
	c, err := t.Verify(opts)
	if err != nil {
		return t, c, err
	}
	h := t.Info.MessageImprint.Hash
	if h == 0 {
		return t, c, fmt.Errorf("%w: message imprint hash algorithm", ErrUnsupported)
	}
	digest, err := imprintOf(h)
	if err != nil {
		return t, c, fmt.Errorf("tsp: computing the imprint: %w", err)
	}
	return t, c, t.CheckImprintDigest(digest)
}

// CheckTSACertificate checks what RFC 3161, section 2.3, requires of a TSA
// certificate: an extended key usage extension with id-kp-timeStamping as
// its only purpose, marked critical. strict false accepts a non-critical
// extension, which older qualified TSA certificates have.
func CheckTSACertificate(c *x509.Certificate, strict bool) error {
	if len(c.ExtKeyUsage) != 1 || c.ExtKeyUsage[0] != x509.ExtKeyUsageTimeStamping || len(c.UnknownExtKeyUsage) > 0 {
		return fmt.Errorf("%w: extended key usage %v %v", ErrNotTSACertificate, c.ExtKeyUsage, c.UnknownExtKeyUsage)
	}
	if !strict {
		return nil
	}
	i := slices.IndexFunc(c.Extensions, func(e pkix.Extension) bool { return e.Id.Equal(oidExtExtKeyUsage) })
	if i < 0 || !c.Extensions[i].Critical {
		return fmt.Errorf("%w: extended key usage not critical", ErrNotTSACertificate)
	}
	return nil
}

var oidExtExtKeyUsage = asn1.ObjectIdentifier{2, 5, 29, 37}

// element returns the DER element token starts with, or token itself when
// it is not DER (an indefinite-length BER encoding, whose end only a BER
// reader finds).
func element(token []byte) []byte {
	in := cryptobyte.String(token)
	var e cryptobyte.String
	if in.ReadASN1Element(&e, cbasn1.SEQUENCE) {
		return e
	}
	return token
}
