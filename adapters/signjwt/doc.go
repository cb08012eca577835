// Package signjwt authenticates the callers of the signing server's
// /api/server-signing/sign-ska (signing-server.md §5): the tenant's
// on-premises signing proxy, which sends a JWT it issued and signed itself
// with a private key whose public half is registered in the control
// database under (tenant, kid). It does not use the resource-server
// filter, an OIDC provider or a JWKS: the only trusted key is the
// registered one.
//
// The rules follow RFC 8725 (JWT best current practice) and the
// client-assertion rules of RFC 7523 §3; signing.md A.6 item 4 lists the
// pitfalls they answer.
//
// # The token
//
// The spec leaves the claim names and the exact profile open; this is
// ours. The Authorization header holds "Bearer <jwt>" (the scheme compared
// case-insensitively) or the bare JWT. The JWT is a JWS in compact
// serialization, with one signature.
//
// Protected header:
//
//   - alg: exactly the Algorithm registered with the key, one of RS256,
//     RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512. The
//     allow-list is tied to the registered key, never taken from the token
//     alone (RFC 8725 §3.1): "none" and the HMAC algorithms are refused
//     before any key is looked at, so a public key can never serve as an
//     HMAC secret, and an RS256 key does not verify a PS256 token.
//   - kid: required; the key is looked up by (tenant claim, kid).
//   - typ: required, "svc-dss-sign+jwt" or "application/svc-dss-sign+jwt"
//     ([Type], [MediaType]), compared case-insensitively (RFC 8725 §3.11).
//     Explicit typing keeps every other JWT out, such as an OIDC access
//     token of the validation service's identity provider (§3.12).
//   - crit and b64 are refused: this profile has no extensions. jwk, jku,
//     x5c and x5u are ignored: the only key trusted is the registered one.
//
// Claims, each required unless said otherwise (a duplicated claim name is
// refused, RFC 7519 §4):
//
//   - urn::svc:tenantId ([ClaimTenant]): the tenant's UUID.
//   - urn::svc:moduleUuid ([ClaimModule]): the UUID of the tenant's DSS
//     module instance, which the proxy is. The key must be registered for
//     this module.
//   - iss: equal to the module claim, character for character.
//   - aud: a string or an array containing [Audience],
//     "urn:svc-dss:server-signing" (RFC 8725 §3.9).
//   - jti: non-empty, at most [MaxJTILength] characters; single-use until
//     the token expires (RFC 7523 §3 item 7).
//   - iat and exp: NumericDates; exp − iat at most [MaxLifetime], 5
//     minutes. nbf is optional. Each is checked with [Skew], 60 s, of
//     clock difference: exp + Skew must not have passed, nbf and iat − Skew
//     must not lie ahead.
//   - urn::svc:bodySha256 ([ClaimBodySHA256]): the unpadded base64url
//     SHA-256 of the exact bytes of the HTTP request body ([BodyDigest]).
//     A captured token therefore cannot sign other digests during its
//     lifetime (signing.md A.6 item 4, "bind the body").
//   - sub: optional; reported in [Identity] for the audit.
//
// # Order of the checks
//
// Nothing read from the token is trusted before the signature verifies,
// and the single-use record comes last:
//
//  1. the header is parsed (no trust): compact JWS, an asymmetric alg, typ,
//     kid; the claims are read and the tenant and module claims must be
//     UUIDs;
//  2. the key is looked up by (tenant, kid);
//  3. alg must equal the registered Algorithm, and the signature must
//     verify with the registered key (RSA of at least [MinRSABits] bits for
//     RS and PS; EC on P-256, P-384 or P-521 for ES256, ES384, ES512);
//  4. iss, aud, the times, the lifetime, jti and the body digest;
//  5. the key's module must be the module claim, else 403;
//  6. the jti is recorded in the [ports.ReplayStore] as
//     tenant/kid/jti until exp + Skew; a jti seen before is a 401.
//
// Steps 2 and 3 answer alike, whatever the control database holds: an
// unknown kid, a kid of another tenant, an alg other than the registered
// one and a signature by another key are one 401 with one reason
// ([ReasonSignature]), and each costs one signature verification of the
// token's alg (against a stand-in key when no registered key may verify
// it). Anything else would let anyone list a tenant's kids, from the
// answers or from their timing; a 403 for a kid of another tenant would
// confirm that the kid exists.
//
// Refusing a key of another module only once the token has verified (5)
// means a 403 is an answer about an authenticated caller, who holds a key
// of the tenant; a forged or stale token gets a 401 and learns nothing
// about which module a key is registered for. Recording the jti last
// means a forged or otherwise invalid token cannot burn the jti of a real
// one.
//
// # Errors
//
// Every error wraps exactly one of [ErrUnauthenticated] (401),
// [ErrForbidden] (403) or [ErrUnavailable] (502). The 401s and 403s are
// [*RefusalError]s: their Reason, in fixed words, is what a caller may be
// told; it names nothing read from the token before its signature
// verified, and nothing the control database holds. Their Detail and
// the text of a 502 are for the log. No error holds the token. A key
// whose registration does not parse, or does not fit its algorithm, is an
// error of the control database, not of the caller: it wraps
// [ErrUnavailable] and [ErrBadRegistration].
//
// # What the caller still has to do
//
// Verify authenticates the proxy. The handler must still compare the
// request body's tenantId and moduleUuid with [Identity.Tenant] and
// [Identity.Module] (signing-server.md §5 item 2; both are lower-case
// canonical UUIDs), and check the dss licence and the dss.sign permission
// (item 3). The body must be read in full, within the size limit, before
// Verify is called, and the very same bytes must be parsed afterwards.
package signjwt
