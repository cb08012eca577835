package egress

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/egress/internal/fetch"
)

// Limits of a CA issuers (AIA) answer: one certificate, or a bundle of a
// few. The largest bundles in use (cross-certificate collections of
// bridge PKIs) are tens of kilobytes.
const (
	MaxCAIssuersBytes = 256 << 10
	MaxCAIssuersCerts = 64
)

// ErrNoCertificates is wrapped when CA issuers data holds no certificate
// this package can read.
var ErrNoCertificates = errors.New("egress: no readable certificates")

// FetchCAIssuers downloads the certificates at a CA issuers URL (RFC 5280,
// section 4.2.2.1) with client, which must be NewCertClient's. Failures to
// download are *FetchError (a refusal by the guard also unwraps to
// *BlockedError); unreadable content wraps ErrNoCertificates. The
// certificates are untrusted: they are candidates for path building.
func FetchCAIssuers(ctx context.Context, client *http.Client, url string) ([]*x509.Certificate, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, &FetchError{URL: url, Err: err}
	}
	req.Header.Set("User-Agent", "svc-dss-validator")
	body, err := fetch.Body(client, req, MaxCAIssuersBytes)
	if err != nil {
		if se, ok := errors.AsType[*fetch.StatusError](err); ok {
			return nil, &FetchError{URL: url, Status: se.Code}
		}
		return nil, &FetchError{URL: url, Err: err}
	}
	certs, err := ParseCertificates(body)
	if err != nil {
		return nil, fmt.Errorf("egress: GET %s: %w", url, err)
	}
	return certs, nil
}

// ParseCertificates reads the forms CA issuers URLs serve: one DER
// certificate (application/pkix-cert), a DER certs-only PKCS #7 bundle
// (application/pkcs7-mime, .p7c), or PEM holding CERTIFICATE or PKCS7
// blocks. Other PEM blocks are skipped. The media type is not consulted:
// servers label these files inconsistently.
func ParseCertificates(data []byte) ([]*x509.Certificate, error) {
	if len(data) > MaxCAIssuersBytes {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrNoCertificates, len(data), MaxCAIssuersBytes)
	}
	var ders [][]byte
	// DER starts with a SEQUENCE tag; PEM files may start with
	// explanatory text, which pem.Decode skips.
	if len(data) > 0 && data[0] != 0x30 && bytes.Contains(data, []byte("-----BEGIN")) {
		rest := data
		for {
			var block *pem.Block
			block, rest = pem.Decode(rest)
			if block == nil {
				break
			}
			switch block.Type {
			case "CERTIFICATE":
				ders = append(ders, block.Bytes)
			case "PKCS7":
				certs, err := certsOnly(block.Bytes)
				if err != nil {
					return nil, err
				}
				ders = append(ders, certs...)
			}
		}
	} else if isContentInfo(data) {
		certs, err := certsOnly(data)
		if err != nil {
			return nil, err
		}
		ders = certs
	} else {
		ders = [][]byte{data}
	}
	if len(ders) == 0 {
		return nil, fmt.Errorf("%w: no certificate found", ErrNoCertificates)
	}
	if len(ders) > MaxCAIssuersCerts {
		return nil, fmt.Errorf("%w: %d certificates, limit %d", ErrNoCertificates, len(ders), MaxCAIssuersCerts)
	}
	certs := make([]*x509.Certificate, 0, len(ders))
	for i, der := range ders {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, fmt.Errorf("%w: certificate %d: %w", ErrNoCertificates, i, err)
		}
		certs = append(certs, c)
	}
	return certs, nil
}

var oidSignedData = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}

// isContentInfo tells a CMS ContentInfo (SEQUENCE starting with an OID)
// from a certificate (SEQUENCE starting with a SEQUENCE).
func isContentInfo(data []byte) bool {
	s := cryptobyte.String(data)
	var seq cryptobyte.String
	return s.ReadASN1(&seq, cbasn1.SEQUENCE) && seq.PeekASN1Tag(cbasn1.OBJECT_IDENTIFIER)
}

// certsOnly returns the certificates of a DER PKCS #7 / CMS SignedData
// (RFC 5652, section 5.1), the "degenerate" certs-only form of RFC 8894
// in practice. Only the structure down to the certificates is read:
// signers, if any, are ignored, because the certificates are untrusted
// candidates either way. Choices other than plain certificates (attribute
// certificates, other formats) are skipped.
func certsOnly(data []byte) ([][]byte, error) {
	bad := func(what string) error {
		return fmt.Errorf("%w: PKCS #7: malformed %s", ErrNoCertificates, what)
	}
	in := cryptobyte.String(data)
	var ci, content, sd cryptobyte.String
	var typ asn1.ObjectIdentifier
	if !in.ReadASN1(&ci, cbasn1.SEQUENCE) || !in.Empty() || !ci.ReadASN1ObjectIdentifier(&typ) {
		return nil, bad("ContentInfo")
	}
	if !typ.Equal(oidSignedData) {
		return nil, fmt.Errorf("%w: PKCS #7 content type %v is not signedData", ErrNoCertificates, typ)
	}
	if !ci.ReadASN1(&content, cbasn1.Tag(0).ContextSpecific().Constructed()) ||
		!content.ReadASN1(&sd, cbasn1.SEQUENCE) {
		return nil, bad("content")
	}
	var version int
	if !sd.ReadASN1Integer(&version) || !sd.SkipASN1(cbasn1.SET) || !sd.SkipASN1(cbasn1.SEQUENCE) {
		return nil, bad("SignedData")
	}
	var set cryptobyte.String
	var present bool
	if !sd.ReadOptionalASN1(&set, &present, cbasn1.Tag(0).ContextSpecific().Constructed()) {
		return nil, bad("certificates")
	}
	var certs [][]byte
	for !set.Empty() {
		var elem cryptobyte.String
		var tag cbasn1.Tag
		if !set.ReadAnyASN1Element(&elem, &tag) {
			return nil, bad("certificates")
		}
		if tag == cbasn1.SEQUENCE {
			certs = append(certs, elem)
			if len(certs) > MaxCAIssuersCerts {
				return nil, fmt.Errorf("%w: more than %d certificates", ErrNoCertificates, MaxCAIssuersCerts)
			}
		}
	}
	return certs, nil
}
