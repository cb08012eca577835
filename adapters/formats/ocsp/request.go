package ocsp

import (
	"crypto"
	"crypto/x509"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// MaxNonceBytes is the longest nonce RFC 8954 allows.
const MaxNonceBytes = 32

// Request returns a DER OCSPRequest for cert, issued by issuer, whose
// CertID uses hash (crypto.SHA1, SHA256, SHA384 or SHA512). SHA-1 is what
// every responder answers (RFC 5019 requires it); it serves only to
// identify the certificate here, not to sign anything.
func Request(cert, issuer *x509.Certificate, hash crypto.Hash) ([]byte, error) {
	return request(cert, issuer, hash, nil)
}

// RequestWithNonce is [Request] with an id-pkix-ocsp-nonce extension
// holding nonce (1 to [MaxNonceBytes] bytes, RFC 8954). Responders that
// honour it echo it in [BasicResponse.Nonce]; many serve pre-produced
// responses and do not.
func RequestWithNonce(cert, issuer *x509.Certificate, hash crypto.Hash, nonce []byte) ([]byte, error) {
	if len(nonce) == 0 || len(nonce) > MaxNonceBytes {
		return nil, fmt.Errorf("ocsp: nonce of %d bytes, want 1 to %d", len(nonce), MaxNonceBytes)
	}
	return request(cert, issuer, hash, nonce)
}

func request(cert, issuer *x509.Certificate, hash crypto.Hash, nonce []byte) ([]byte, error) {
	oid := oidFor(hash)
	if oid == nil {
		return nil, fmt.Errorf("%w: CertID hash %v", ErrUnsupported, hash)
	}
	nameHash, keyHash, err := certIDHashes(hash, cert, issuer)
	if err != nil {
		return nil, err
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // OCSPRequest
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // TBSRequest
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // requestList
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // Request
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // CertID
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
							b.AddASN1ObjectIdentifier(oid)
							// NULL parameters, as OpenSSL and most
							// clients send them; responders compare
							// hashes, not encodings.
							b.AddASN1NULL()
						})
						b.AddASN1OctetString(nameHash)
						b.AddASN1OctetString(keyHash)
						b.AddASN1BigInt(cert.SerialNumber)
					})
				})
			})
			if nonce != nil {
				b.AddASN1(tagExplicit2, func(b *cryptobyte.Builder) { // requestExtensions
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
							b.AddASN1ObjectIdentifier(oidNonce)
							b.AddASN1(cbasn1.OCTET_STRING, func(b *cryptobyte.Builder) {
								b.AddASN1OctetString(nonce)
							})
						})
					})
				})
			}
		})
	})
	der, err := b.Bytes()
	if err != nil {
		return nil, fmt.Errorf("ocsp: encoding request: %w", err)
	}
	return der, nil
}
