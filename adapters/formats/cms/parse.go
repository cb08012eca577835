package cms

import (
	"bytes"
	"crypto/x509"
	"encoding/asn1"
	"fmt"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// SignedData is a parsed CMS SignedData (RFC 5652, section 5.1). Byte
// slices alias the input unless the field says otherwise.
type SignedData struct {
	// Raw is the ContentInfo as given to Parse.
	Raw []byte

	Version int

	// DigestAlgorithms are the AlgorithmIdentifiers of the digestAlgorithms
	// field, DER.
	DigestAlgorithms [][]byte

	// ContentType is the eContentType; Content is the eContent octets
	// (segments of a BER constructed OCTET STRING joined), nil for a
	// detached signature. For PKCS #7 v1.5 content other than an OCTET
	// STRING, Content is the content octets of its DER encoding, which is
	// what that version digests.
	ContentType asn1.ObjectIdentifier
	Content     []byte

	// Certificates are the X.509 certificates of the certificates field
	// that cert.Parse read, in input order. BadCertificates are those it
	// refused; OtherCertificates the other CertificateChoices (attribute
	// certificates, other formats), raw.
	Certificates      []*x509.Certificate
	BadCertificates   []BadCertificate
	OtherCertificates [][]byte

	// CRLs are the CertificateList entries of the crls field, raw (DER).
	// OtherRevocationInfo are its other entries, such as OCSP responses.
	CRLs                [][]byte
	OtherRevocationInfo []OtherRevocationInfo

	SignerInfos []*SignerInfo
}

// A BadCertificate is a certificate of the certificates field that
// cert.Parse refused.
type BadCertificate struct {
	Raw []byte
	Err error
}

// OtherRevocationInfo is an OtherRevocationInfoFormat (RFC 5652, section
// 10.2.1), as used for OCSP responses (RFC 5940).
type OtherRevocationInfo struct {
	Format asn1.ObjectIdentifier
	Info   []byte // the DER of otherRevInfo, an OCSPResponse for OIDRevInfoOCSPResponse
}

// Parse reads a ContentInfo holding SignedData, in DER or BER. Trailing zero
// bytes are ignored (PDF signature dictionaries pad the CMS with them);
// other trailing data is ErrMalformed.
//
// Parsing checks structure only: no signature is verified, and
// certificates that do not parse are kept in BadCertificates.
func Parse(data []byte) (*SignedData, error) {
	ci, rest, err := readElement(data, 0)
	if err != nil {
		return nil, fmt.Errorf("ContentInfo: %w", err)
	}
	for _, c := range rest {
		if c != 0 {
			return nil, fmt.Errorf("%w: data after the ContentInfo", ErrMalformed)
		}
	}
	if !ci.is(classUniversal, asn1.TagSequence, true) {
		return nil, fmt.Errorf("%w: ContentInfo is not a SEQUENCE", ErrMalformed)
	}
	kids, err := ci.fields(2)
	if err != nil || len(kids) != 2 {
		return nil, fmt.Errorf("%w: ContentInfo fields", ErrMalformed)
	}
	ct, err := kids[0].oid()
	if err != nil {
		return nil, fmt.Errorf("ContentInfo contentType: %w", err)
	}
	if !ct.Equal(OIDSignedData) {
		return nil, fmt.Errorf("%w: content type %v is not SignedData", ErrUnsupported, ct)
	}
	if !kids[1].is(classContext, 0, true) {
		return nil, fmt.Errorf("%w: ContentInfo content is not [0]", ErrMalformed)
	}
	inner, err := kids[1].fields(1)
	if err != nil || len(inner) != 1 {
		return nil, fmt.Errorf("%w: ContentInfo content", ErrMalformed)
	}
	sd, err := parseSignedData(inner[0])
	if err != nil {
		return nil, err
	}
	sd.Raw = data
	return sd, nil
}

func parseSignedData(e element) (*SignedData, error) {
	if !e.is(classUniversal, asn1.TagSequence, true) {
		return nil, fmt.Errorf("%w: SignedData is not a SEQUENCE", ErrMalformed)
	}
	kids, err := e.fields(6)
	if err != nil {
		return nil, fmt.Errorf("SignedData: %w", err)
	}
	if len(kids) < 4 {
		return nil, fmt.Errorf("%w: SignedData has %d fields", ErrMalformed, len(kids))
	}
	sd := &SignedData{}
	if sd.Version, err = kids[0].smallInt(5); err != nil {
		return nil, fmt.Errorf("SignedData version: %w", err)
	}
	if err := sd.parseDigestAlgorithms(kids[1]); err != nil {
		return nil, err
	}
	if err := sd.parseEncapContentInfo(kids[2]); err != nil {
		return nil, err
	}
	i := 3
	if i < len(kids) && kids[i].isContext(0) {
		if err := sd.parseCertificates(kids[i]); err != nil {
			return nil, err
		}
		i++
	}
	if i < len(kids) && kids[i].isContext(1) {
		if err := sd.parseRevocationInfo(kids[i]); err != nil {
			return nil, err
		}
		i++
	}
	if i != len(kids)-1 || !kids[i].is(classUniversal, asn1.TagSet, true) {
		return nil, fmt.Errorf("%w: SignedData signerInfos", ErrMalformed)
	}
	infos, err := kids[i].children(MaxSignerInfos)
	if err != nil {
		return nil, fmt.Errorf("signerInfos: %w", err)
	}
	for n, si := range infos {
		s, err := parseSignerInfo(si, 0)
		if err != nil {
			return nil, fmt.Errorf("SignerInfo %d: %w", n, err)
		}
		sd.SignerInfos = append(sd.SignerInfos, s)
	}
	return sd, nil
}

func (sd *SignedData) parseDigestAlgorithms(e element) error {
	if !e.is(classUniversal, asn1.TagSet, true) {
		return fmt.Errorf("%w: digestAlgorithms is not a SET", ErrMalformed)
	}
	algs, err := e.children(MaxDigestAlgorithms)
	if err != nil {
		return fmt.Errorf("digestAlgorithms: %w", err)
	}
	for _, a := range algs {
		der, err := algorithmDER(a)
		if err != nil {
			return fmt.Errorf("digestAlgorithms: %w", err)
		}
		sd.DigestAlgorithms = append(sd.DigestAlgorithms, der)
	}
	return nil
}

func (sd *SignedData) parseEncapContentInfo(e element) error {
	if !e.is(classUniversal, asn1.TagSequence, true) {
		return fmt.Errorf("%w: encapContentInfo is not a SEQUENCE", ErrMalformed)
	}
	kids, err := e.fields(2)
	if err != nil || len(kids) == 0 {
		return fmt.Errorf("%w: encapContentInfo fields", ErrMalformed)
	}
	if sd.ContentType, err = kids[0].oid(); err != nil {
		return fmt.Errorf("eContentType: %w", err)
	}
	if len(kids) == 1 {
		return nil // detached
	}
	if !kids[1].is(classContext, 0, true) {
		return fmt.Errorf("%w: eContent is not [0]", ErrMalformed)
	}
	inner, err := kids[1].fields(1)
	if err != nil || len(inner) != 1 {
		return fmt.Errorf("%w: eContent", ErrMalformed)
	}
	c := inner[0]
	if c.isUniversal(asn1.TagOctetString) {
		if sd.Content, err = c.octets(); err != nil {
			return fmt.Errorf("eContent: %w", err)
		}
		if sd.Content == nil {
			sd.Content = []byte{} // present but empty, not detached
		}
		return nil
	}
	// PKCS #7 v1.5 (RFC 2315, section 9.3) allows any type here and
	// digests the content octets of its DER encoding.
	der, err := c.der()
	if err != nil {
		return fmt.Errorf("eContent: %w", err)
	}
	content, _, err := readElement(der, 0)
	if err != nil {
		return fmt.Errorf("eContent: %w", err)
	}
	sd.Content = content.content
	if sd.Content == nil {
		sd.Content = []byte{}
	}
	return nil
}

func (sd *SignedData) parseCertificates(e element) error {
	certs, err := e.children(MaxCertificates)
	if err != nil {
		return fmt.Errorf("certificates: %w", err)
	}
	for _, c := range certs {
		der, err := derOrOriginal(c)
		if err != nil {
			return fmt.Errorf("certificates: %w", err)
		}
		if !c.isUniversal(asn1.TagSequence) {
			// extendedCertificate [0], v1AttrCert [1], v2AttrCert [2],
			// other [3].
			sd.OtherCertificates = append(sd.OtherCertificates, der)
			continue
		}
		parsed, err := cert.Parse(der)
		if err != nil {
			sd.BadCertificates = append(sd.BadCertificates, BadCertificate{Raw: der, Err: err})
			continue
		}
		sd.Certificates = append(sd.Certificates, parsed)
	}
	return nil
}

func (sd *SignedData) parseRevocationInfo(e element) error {
	infos, err := e.children(MaxRevocationInfo)
	if err != nil {
		return fmt.Errorf("crls: %w", err)
	}
	for _, r := range infos {
		der, err := derOrOriginal(r)
		if err != nil {
			return fmt.Errorf("crls: %w", err)
		}
		switch {
		case r.isUniversal(asn1.TagSequence):
			sd.CRLs = append(sd.CRLs, der)
		case r.is(classContext, 1, true):
			kids, err := r.fields(2)
			if err != nil || len(kids) != 2 {
				return fmt.Errorf("%w: OtherRevocationInfoFormat", ErrMalformed)
			}
			format, err := kids[0].oid()
			if err != nil {
				return fmt.Errorf("otherRevInfoFormat: %w", err)
			}
			info, err := derOrOriginal(kids[1])
			if err != nil {
				return fmt.Errorf("otherRevInfo: %w", err)
			}
			sd.OtherRevocationInfo = append(sd.OtherRevocationInfo, OtherRevocationInfo{Format: format, Info: info})
		default:
			return fmt.Errorf("%w: RevocationInfoChoice %v", ErrMalformed, r)
		}
	}
	return nil
}

// derOrOriginal returns the input bytes of e when they are DER, or its DER
// re-encoding. Certificates and CRLs must be DER to verify; a BER copy has
// been re-encoded by someone and is given its best chance.
func derOrOriginal(e element) ([]byte, error) {
	if e.isDER() {
		return e.raw, nil
	}
	der, err := e.der()
	if err != nil {
		return nil, err
	}
	if bytes.Equal(der, e.raw) {
		return e.raw, nil
	}
	return der, nil
}

// algorithmDER returns the DER of an AlgorithmIdentifier element.
func algorithmDER(e element) ([]byte, error) {
	if !e.is(classUniversal, asn1.TagSequence, true) {
		return nil, fmt.Errorf("%w: AlgorithmIdentifier is not a SEQUENCE", ErrMalformed)
	}
	return derOrOriginal(e)
}
