// Package egress is the service's outbound HTTP: one client configuration
// (proxy, timeouts) for everything that leaves the process, the
// trusted-list download built on it, and the guarded client of
// certificate-driven fetches with what is fetched through it: CA issuers,
// OCSP responses and CRLs, the revocation source built on them and their
// cache.
//
// # What applies where
//
// The proxy applies to all outbound HTTP, the trusted-list refresh
// included. The private-network guard and the host allow-list apply only
// to certificate-driven fetches (AIA, OCSP, CRL), whose URLs come from
// untrusted uploads; trusted-list URLs are configured by the operator and
// are never subject to them (validation-service.md, "Egress control").
// [NewClient] builds the former, [NewCertClient] the latter.
//
// # Scope
//
//   - [NewClient], [ListSource]: trusted-list downloads.
//   - [NewCertClient]: the client for URLs taken from certificates. Before
//     any connection it refuses schemes other than http and https, hosts
//     off the allow-list, and, unless AllowPrivateNetworksUnsafe, IP literals in
//     blocked ranges ([BlockedAddr]), "localhost" names and numeric host
//     names. Connecting directly it resolves the name itself, vets every
//     address and dials the vetted address, so a DNS answer that changes
//     between check and use (rebinding) gains nothing; the socket's
//     address is checked once more just before connect. Redirects are
//     checked like the first URL. Refusals are [*BlockedError].
//   - [FetchCAIssuers], [ParseCertificates]: AIA CA issuers in DER, PEM
//     or a certs-only PKCS #7 bundle.
//   - [ExchangeOCSP], [FetchCRL]: the bounded HTTP exchanges of OCSP
//     (RFC 6960, appendix A.1) and CRL downloads. Reading, verifying and
//     encoding the revocation data is adapters/formats/ocsp's and
//     adapters/formats/crl's, which this package imports and which never
//     import it.
//   - [RevocationSource]: the revocation facts of a certificate, from the
//     data embedded in the signature or fetched online.
//   - [RevocationCache]: OCSP responses and CRLs in memory until their
//     nextUpdate, bounded, with least-recently-used eviction.
//
// # Non-goals
//
//   - No revocation decision: which source to ask, in which order, and
//     what an answer means for a validation is the validator's.
//   - No LDAP, FTP or file URLs: certificate URLs with those schemes are
//     refused, as EU DSS's online loaders do by default for LDAP.
//   - Behind a proxy the guard cannot see the address the proxy connects
//     to; see [NewCertClient] and docs/decisions/0015.
package egress
