// Package brainpool verifies ECDSA signatures on the brainpool curves of
// RFC 5639 (brainpoolP256r1, P384r1, P512r1 and their t1 twists) fast
// enough for German qualified signatures, which use them.
//
// crypto/ecdsa verifies on any elliptic.Curve, but for a curve outside the
// standard library it does so with the curve's own big.Int arithmetic: on
// brainpoolP256r1 that is some 5 ms a signature, fifty times P-256. This
// package does the same verification with
//
//   - field arithmetic in Montgomery form on fixed-size arrays of 64-bit
//     limbs with math/bits (CIOS multiplication, squaring by separated
//     operand scanning), written for each prime by gen.go into p256.go,
//     p384.go and p512.go;
//   - Jacobian coordinates on the a = -3 twist of each curve: an r1 curve
//     is isomorphic to its t1 twist through (x, y) -> (x·z², y·z³), with
//     the z of RFC 5639 section 3, and a = -3 allows the cheaper doubling;
//   - u1·G + u2·Q by interleaved width-w NAF (Shamir's trick), with the
//     odd multiples of G computed once per curve on first use (in affine
//     coordinates, one inversion for the lot) and those of Q per signature
//     (with their Z² and Z³, which make each addition cheaper);
//   - the final comparison in projective form (r·Z²·z² = X, and r+n when
//     that is below p), so no field inversion per signature.
//
// Scalars mod n use math/big: a few operations per signature. Nothing here
// runs in constant time: verification handles public values only, and
// the package must not be used with secrets.
//
// On amd64 a brainpoolP256r1 verification takes about 1.4 times the CPU
// time of crypto/ecdsa on P-256, which has assembly; brainpoolP384r1 and
// P512r1 take less than crypto/ecdsa on P-384 and P-521 (BenchmarkVerify).
// Nearly all of it is field multiplication. The generator is ours rather
// than gnark-crypto's: the primes use their top bit, which rules out
// gnark's faster no-carry multiplication anyway, and generating a few
// hundred lines here keeps the module free of a dependency.
//
// The test vectors are those of RFC 5639 (domain parameters), RFC 7027
// (scalar multiplication) and Wycheproof (ECDSA); the results are also
// compared with the generic implementation of ProtonMail/go-crypto.
package brainpool

//go:generate go run gen.go
