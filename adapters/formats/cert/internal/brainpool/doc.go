// Package brainpool verifies ECDSA signatures on the brainpool curves of
// RFC 5639 (brainpoolP256r1, P384r1, P512r1 and their t1 twists) fast
// enough for German qualified signatures, which use them.
//
// crypto/ecdsa verifies on any elliptic.Curve, but for a curve outside the
// standard library it does so with the curve's own big.Int arithmetic: on
// brainpoolP256r1 that is several times the cost of the whole validation
// of a small PDF. This package does the same verification with
//
//   - field arithmetic in Montgomery form on fixed-size arrays of 64-bit
//     limbs (CIOS multiplication with math/bits), unrolled for each prime
//     by gen.go into p256.go, p384.go and p512.go;
//   - Jacobian coordinates on the a = -3 twist of each curve: an r1 curve
//     is isomorphic to its t1 twist through (x, y) -> (x·z², y·z³), with
//     the z of RFC 5639 section 3, and a = -3 allows the cheaper doubling;
//   - u1·G + u2·Q by interleaved width-w NAF (Shamir's trick), with the
//     odd multiples of G precomputed once per curve on first use;
//   - the final comparison in projective form (r·Z²·z² = X, and r+n when
//     that is below p), so no field inversion per signature.
//
// Scalars mod n use math/big: a few operations per signature. Nothing here
// runs in constant time: verification handles public values only, and
// the package must not be used with secrets.
//
// The test vectors are those of RFC 5639 (domain parameters), RFC 7027
// (scalar multiplication) and Wycheproof (ECDSA); the results are also
// compared with the generic implementation of ProtonMail/go-crypto.
package brainpool

//go:generate go run gen.go
