// Package jades reads JAdES signatures (ETSI TS 119 182-1) and plain JWS
// (RFC 7515, RFC 7797) into ades.Signature: the compact, flattened JSON
// and general JSON serialisations, attached and detached payloads (sigD
// ObjectIdByURI, ObjectIdByURIHash and HttpHeaders), b64 false, the protected header's
// signing-certificate references, signing time, commitments and policy,
// and the unsigned etsiU components (sigTst, xVals, rVals, arcTst,
// tstVD...) in both their base64url and clear JSON forms; each cSig is a
// counter-signature, read as a signature of its own
// (ades.Signature.CounterSignatures).
//
// It parses JSON with a strict reader of its own (json.go): a member name
// given twice, as encoding/json would silently accept, makes the document
// unreadable, since a signature over ambiguous JSON says two things.
// go-jose is not used: it refuses JAdES (crit sigT, detached payloads).
//
// docs/decisions/0033-jades-reader.md records the choices.
package jades
