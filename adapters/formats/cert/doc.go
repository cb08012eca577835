// Package cert reads X.509 certificates the way signature validation needs
// them, including the real European certificates that crypto/x509 refuses,
// and checks signatures made with certificate keys.
//
// # Scope
//
//   - Parse reads one DER certificate into an *x509.Certificate. It first
//     asks crypto/x509. When that fails it repairs what it knows crypto/x509
//     objects to (a negative serial number, a public key on a brainpool
//     curve or of type id-RSASSA-PSS, duplicate certificate-policy OIDs, one
//     unreadable extension), parses the repaired copy with crypto/x509 and
//     puts the original values back. When even that fails it reads the
//     TBSCertificate itself (see ParseDetailed for the fields it fills).
//     Raw, RawTBSCertificate, Signature and RawSubjectPublicKeyInfo are
//     always the original bytes, so certificate signatures still verify.
//   - ParseAll reads concatenated DER certificates; ParseDetailed also says
//     which way a certificate was read and which deviations were tolerated.
//   - ParsePublicKey reads a SubjectPublicKeyInfo: what crypto/x509 reads,
//     plus ECDSA keys on brainpoolP256r1/P384r1/P512r1 (and the t1 twists),
//     as *ecdsa.PublicKey on the curves of
//     github.com/ProtonMail/go-crypto/brainpool, and RSA keys labelled
//     id-RSASSA-PSS.
//   - ParseSignatureAlgorithm, CheckSignature, CheckDigestSignature and
//     CheckCertificateSignature verify signatures: RSA PKCS #1 v1.5,
//     RSASSA-PSS with its parameters, ECDSA (DER and the BSI TR-03111 plain
//     r||s form) on the NIST and brainpool curves, and Ed25519; with SHA-1,
//     SHA-2 and SHA-3 digests. CMS and certificate path building use them;
//     VerifyECDSA and VerifyPKCS1v15 are the ECDSA and RSA PKCS #1 v1.5
//     checks alone, for XMLDSig.
//
// # Negative serial numbers
//
// crypto/x509 refuses negative serial numbers since Go 1.23 unless the
// GODEBUG setting x509negativeserial=1 is in effect. A library cannot set
// it for one call: the //go:debug directive only works in main packages
// and test files, and changing the GODEBUG environment variable at run
// time changes it for the whole process. Parse therefore does not depend on
// it: with the setting crypto/x509 reads such a certificate directly, and
// without it the repair path does, with the same result.
//
// # Defences
//
// Input is untrusted. Sizes and counts are bounded by the constants in
// limits.go; lenient reading never guesses a value it cannot decode, it
// leaves the field empty and records a Deviation. All cryptography is
// crypto/rsa, crypto/ecdsa, crypto/ed25519 and crypto/sha*, except ECDSA
// verification on the brainpool curves and RSA PKCS #1 v1.5 verification
// (below).
//
// # Brainpool verification
//
// German qualified signatures use brainpool keys. ProtonMail's curves
// implement elliptic.Curve with generic big.Int arithmetic, and crypto/ecdsa
// verifies on a curve outside the standard library with the curve's own
// methods: some 5 ms a signature on brainpoolP256r1, a quarter of the CPU
// time of validating a German PAdES file. The keys keep that type
// (ProtonMail's curve in an *ecdsa.PublicKey, what crypto/x509 and the
// format readers pass around), but CheckDigestSignature and VerifyECDSA
// recognise these curves and verify with internal/brainpool instead:
// Montgomery field arithmetic on fixed 64-bit limbs generated for each
// prime, within 1.5 times the cost of crypto/ecdsa on P-256 and below it
// on P-384 and P-521 (BenchmarkVerify there). It is checked against the
// test vectors of RFC 5639, RFC 7027 and Wycheproof and against
// ProtonMail's arithmetic.
//
// # RSA PKCS #1 v1.5 verification
//
// crypto/rsa verifies in constant time, with a Montgomery modulus set up
// afresh on every call: about three times math/big's time on an RSA-4096
// key, the same on RSA-2048, and the certificates, OCSP responses and
// time-stamps of a European PAdES file make five to eight RSA-4096
// verifications. Nothing in a verification is secret, so VerifyPKCS1v15,
// which CheckDigestSignature uses, computes s^e mod n with math/big and
// then does what RFC 8017 section 8.2.2 says: it builds the one right
// encoding of the digest and compares the recovered block with it byte for
// byte, never parsing it. It takes only the hashes, keys and digests
// crypto/rsa takes with the same DigestInfo, and leaves everything else to
// crypto/rsa, so it accepts exactly what crypto/rsa accepts. It is checked
// against Wycheproof's vectors (testdata/wycheproof), and against
// crypto/rsa by a differential test and a fuzz target. RSASSA-PSS stays
// crypto/rsa's.
//
// # Non-goals
//
//   - Path building and validation, revocation, name constraints: callers
//     do them with the parsed certificates.
//   - Elliptic-curve keys with explicit (specifiedCurve) parameters,
//     compressed points, brainpool curves other than 256/384/512 bits, DSA,
//     Ed448, MD5 and RIPEMD-160: refused with ErrUnsupported.
//   - Ed25519 over a precomputed digest (CheckDigestSignature): pure EdDSA
//     signs the message itself.
package cert
