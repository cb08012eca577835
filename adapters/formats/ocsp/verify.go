package ocsp

import (
	"bytes"
	"crypto/sha1"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/internal/der"
)

// oidNoCheck is id-pkix-ocsp-nocheck (RFC 6960, section 4.2.2.2.1).
var oidNoCheck = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 48, 1, 5}

// A Signer is the verified signer of a response.
type Signer struct {
	// Certificate is the issuer itself, the delegated responder or a
	// trusted responder (VerifyTrusted).
	Certificate *x509.Certificate
	// Delegated reports a delegated responder (not the issuer).
	Delegated bool
	// NoCheck reports that the delegated responder carries
	// id-pkix-ocsp-nocheck: its own revocation status need not be
	// checked. Always false for the issuer itself.
	NoCheck bool
}

// Verify checks that b is signed by a responder authorised to answer for
// certificates of issuer, and returns that signer. The responder ID decides
// who the candidates are: issuer itself when the ID names it, and any
// certificate sent in the response that the ID names. A delegated responder
// must be issued by issuer (same name, signature by issuer's key) and carry
// the extended key usage id-kp-OCSPSigning.
//
// Verify does not look at times: the validity of the responder certificate
// and the freshness of the response are the caller's (see the package
// documentation).
func (b *BasicResponse) Verify(issuer *x509.Certificate) (Signer, error) {
	var sigErr, authErr error
	if b.ResponderID.names(issuer) {
		err := b.CheckSignature(issuer)
		if err == nil {
			return Signer{Certificate: issuer}, nil
		}
		sigErr = err
	}
	unparseable := 0
	for i, raw := range b.Certificates {
		if bytes.Equal(raw, issuer.Raw) {
			continue // already tried as the issuer
		}
		cert, err := x509.ParseCertificate(raw)
		if err != nil {
			unparseable++
			continue
		}
		if !b.ResponderID.names(cert) {
			continue
		}
		if err := authorised(cert, issuer); err != nil {
			authErr = fmt.Errorf("%w: certs[%d] %q: %w", ErrUnauthorisedResponder, i, cert.Subject, err)
			continue
		}
		if err := b.CheckSignature(cert); err != nil {
			sigErr = err
			continue
		}
		return Signer{Certificate: cert, Delegated: true, NoCheck: hasExtension(cert, oidNoCheck)}, nil
	}
	switch {
	case sigErr != nil:
		// A candidate was entitled to sign but the signature is wrong:
		// the response was altered, which is worth more than the reason
		// another candidate was not entitled.
		return Signer{}, sigErr
	case authErr != nil:
		return Signer{}, authErr
	case unparseable > 0:
		return Signer{}, fmt.Errorf("%w: responder is not the issuer %q, and %d of the certificates sent could not be parsed",
			ErrUnauthorisedResponder, issuer.Subject, unparseable)
	}
	return Signer{}, fmt.Errorf("%w: responder is neither the issuer %q nor a certificate sent with the response",
		ErrUnauthorisedResponder, issuer.Subject)
}

// VerifyTrusted checks that b is signed by one of trusted, responders
// the validator trusts to answer for any certificate (RFC 6960, section
// 4.2.2.2: "a local configuration of OCSP signing authority"), and
// returns that signer. It is the way to the responders a trusted list
// names as services of their own: the Estonian SK responders, certified
// by the root CA rather than delegated by the CA that issued the
// certificates they answer for, are trusted so by SiVa and DSS. The
// responder ID must name the trusted certificate; whether the response
// carries it does not matter.
func (b *BasicResponse) VerifyTrusted(trusted []*x509.Certificate) (Signer, error) {
	var sigErr error
	for _, t := range trusted {
		if t == nil || !b.ResponderID.names(t) {
			continue
		}
		if err := b.CheckSignature(t); err != nil {
			sigErr = err
			continue
		}
		return Signer{Certificate: t, Delegated: true, NoCheck: hasExtension(t, oidNoCheck)}, nil
	}
	if sigErr != nil {
		return Signer{}, sigErr
	}
	return Signer{}, fmt.Errorf("%w: responder is none of the %d trusted responders", ErrUnauthorisedResponder, len(trusted))
}

// Reasons a certificate named as responder is not a delegated one.
var (
	errWrongIssuer = errors.New("not issued by the certificate's issuer")
	errNoEKU       = errors.New("no extended key usage id-kp-OCSPSigning")
)

// authorised reports whether cert is a responder delegated by issuer
// (RFC 6960, section 4.2.2.2).
func authorised(responder, issuer *x509.Certificate) error {
	if !bytes.Equal(responder.RawIssuer, issuer.RawSubject) {
		return errWrongIssuer
	}
	if err := cert.CheckCertificateSignature(responder, issuer.PublicKey); err != nil {
		return fmt.Errorf("%w: %w", errWrongIssuer, err)
	}
	for _, u := range responder.ExtKeyUsage {
		if u == x509.ExtKeyUsageOCSPSigning {
			return nil
		}
	}
	return errNoEKU
}

// CheckSignature verifies b's signature with signer's public key and
// nothing else: no authorisation, no responder ID.
func (b *BasicResponse) CheckSignature(signer *x509.Certificate) error {
	alg, err := cert.ParseSignatureAlgorithm(b.RawSignatureAlgorithm, 0)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	if err := cert.CheckSignature(signer.PublicKey, alg, b.RawResponseData, b.Signature); err != nil {
		return fmt.Errorf("%w: by %q: %w", ErrSignatureInvalid, signer.Subject, err)
	}
	return nil
}

// names reports whether id identifies cert.
func (id ResponderID) names(cert *x509.Certificate) bool {
	if id.RawName != nil {
		return bytes.Equal(id.RawName, cert.RawSubject)
	}
	bits, ok := der.SubjectPublicKeyBits(cert.RawSubjectPublicKeyInfo)
	if !ok {
		return false
	}
	sum := sha1.Sum(bits)
	return bytes.Equal(id.KeyHash, sum[:])
}

func hasExtension(cert *x509.Certificate, oid asn1.ObjectIdentifier) bool {
	for _, e := range cert.Extensions {
		if e.Id.Equal(oid) {
			return true
		}
	}
	return false
}
