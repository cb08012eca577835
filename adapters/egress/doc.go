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
//     any connection it refuses schemes other than http and https,
//     malformed (non-ASCII) host names, hosts off the allow-list, and,
//     unless AllowPrivateNetworksUnsafe, IP literals in blocked ranges
//     ([BlockedAddr]), "localhost" names and numeric host names. Connecting directly it resolves the name itself, vets every
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
// # The guard's rules
//
// Every URL taken from a certificate or a redirect goes through the same
// checks, in this order; the first that fails refuses the fetch with a
// [*BlockedError] whose [BlockReason] prints as the words in quotes,
// which the WARN log records of failed fetches carry as "blockReason"
// next to "blocked=true":
//
//  1. The scheme is http or https ("scheme not allowed"): ldap, ldaps,
//     file, ftp, gopher, dict and scheme-less URLs are refused.
//  2. The host is an IP address, or an ASCII host name of non-empty
//     labels with at most one trailing dot ("malformed host name").
//     Unicode hosts are refused: net/http dials their UTS #46 mapping
//     ("１２７.０.０.１" is 127.0.0.1) but sends a proxy their Punycode.
//  3. With an allow-list, the host is on it ("host not on the
//     allow-list"): exact names, compared case-insensitively, one
//     trailing dot ignored; no subdomains, no wildcards, and an IP
//     address only if listed as such.
//  4. Unless AllowPrivateNetworksUnsafe ("private or special-purpose
//     address" for all of these): an IP literal is refused when
//     [BlockedAddr] is true (loopback 127/8 and ::1, 0.0.0.0/8 and ::,
//     link-local 169.254/16 with 169.254.169.254 and fe80::/10, private
//     10/8, 172.16/12 and 192.168/16, shared 100.64/10, unique-local
//     fc00::/7, site-local fec0::/10, multicast, reserved 240/4,
//     benchmarking 198.18/15, documentation, protocol assignments
//     192.0.0/24 and discard 100::/64, IPv4-mapped and IPv4-compatible forms of these, NAT64
//     64:ff9b::/96 and 6to4 2002::/16 carrying one of these, all of
//     local-use NAT64 64:ff9b:1::/48 and Teredo 2001::/32); "localhost"
//     and "*.localhost" are refused; and so is a name whose last label
//     is all digits or 0x-hex, which inet_aton-style parsers read as an
//     address (2130706433, 0177.0.0.1, 0x7f.1, 127.1).
//  5. Connecting directly, the name is resolved once per connection
//     with Options.Resolver; if any answer is blocked the host is
//     refused, naming the address; otherwise the answers themselves are
//     dialled, never the name, so a DNS answer that changes between
//     check and dial (rebinding) is never used. The socket's address is
//     checked again just before connect.
//  6. A redirect (at most [MaxRedirects]) is a new URL: steps 1 to 5
//     again. The error names the redirect's target.
//
// A refusal is no error of the validation: the OCSP responder, CRL
// distribution point or CA issuers URL is unavailable, the next one is
// tried, and the process reports what it could not establish.
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
