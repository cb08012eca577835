// Package xmldsig verifies enveloped XML signatures (XMLDSig core, with
// the XAdES SignedProperties reference) the way ETSI TS 119 612 trusted
// lists use them: the EU list of trusted lists, national lists, the Swiss
// list. It includes its own XML canonicalisation on
// github.com/beevik/etree, tested byte for byte against libxml2.
//
// # Scope
//
//   - Canonicalisation (Canonicalize, CanonicalizeDocument): Canonical XML
//     1.0 and 1.1 and Exclusive XML Canonicalization 1.0, each with and
//     without comments, of whole documents and of element subtrees (what a
//     same-document reference selects), with the InclusiveNamespaces
//     PrefixList of the exclusive method. ParseDocument reads documents the
//     way the XML data model needs (attribute-value normalisation, strict
//     namespace well-formedness), which etree's own reader does not. A
//     tokenizer of its own reads the common constructs; anything else, and
//     any error, is read again with encoding/xml, whose acceptance and
//     errors stay the reference.
//
//   - Verification (Verify): exactly one ds:Signature, a child of the root
//     element; references to "" (the document), "#id", "#xpointer(/)" and
//     "#xpointer(id('id'))"; the enveloped-signature transform and the six
//     canonicalisation methods as transforms; SHA-1, SHA-2 and SHA-3 digests;
//     RSA PKCS #1 v1.5, RSA-PSS (RFC 6931 URIs and the RFC 9231 rsa-pss form
//     with RSAPSSParams) and ECDSA on the NIST curves. The signer is the first
//     KeyInfo/X509Data certificate (or WithCertificates candidate) whose key
//     verifies the SignatureValue. The XAdES SignedProperties reference and
//     its SigningTime are reported.
//
//   - Checking any signature (Signatures, CheckSignature), for the XAdES
//     reader: every ds:Signature of a document, counter-signatures
//     included, reference by reference. Detached data comes from the
//     caller's Resolver (nothing is fetched), ds:Manifest references are
//     followed one level, a Reference without URI is detached data, the
//     key may be a bare KeyValue, certificates are read with cert.Parse
//     (brainpool keys included), and unsupported algorithms and
//     transforms (XSLT always) are recorded with a stable reason on the
//     reference or value they concern rather than returned as errors.
//     CheckSignature also applies the base64 transform, transforms after a
//     canonicalisation, and the XPath (with here()) and XPath Filter 2.0
//     transforms, evaluated by github.com/antchfx/xpath over an etree
//     navigator within MaxXPathSteps; node-sets with gaps are
//     canonicalised as Canonical XML requires, checked against xmlsec1.
//     Verify keeps the strict behaviour below.
//
// It does not sign: fixtures/xmlsign writes the signatures fixtures and
// tests need.
//
// Verify separates three outcomes a validation policy maps differently: the
// content or signature was altered (*DigestError, ErrSignatureInvalid; see
// IsTampered), there is no single signature (ErrNoSignature,
// ErrMultipleSignatures), or the signature could not be checked (malformed,
// unsupported, duplicate ID, no certificate, limits). Whether the signer is
// trusted is the caller's decision: Verify returns the certificate, it does
// not build or check chains.
//
// # Defences
//
// Input is untrusted. Only same-document references are resolved, nothing is
// fetched. A "#id" reference resolves through an unprefixed Id, ID or id
// attribute, and only when exactly one element in the whole document claims
// that value in any attribute of those names, prefixed ones (tsl:Id,
// xml:id) included: a value two elements could answer to is refused
// (ErrDuplicateID, signature wrapping). Each verified Reference names the
// element it resolved to (Reference.Element), so a caller decides what the
// signature covers on that node, never on a second lookup;
// the SigningTime read is the one inside the SignedProperties that a
// verified reference covers; unknown algorithms are refused, never skipped;
// documents with a DOCTYPE are refused (no entity expansion, no default
// attributes); document size, nesting, references, transforms and embedded
// certificates are bounded (MaxDocumentSize, MaxDepth, MaxReferences,
// MaxTransforms, MaxCertificates), and elements, attributes, text and tags
// are counted while the document is tokenised, before any tree exists
// (MaxElements, MaxAttributes, MaxTextBytes, MaxElementAttributes,
// MaxTagBytes; ParseDocumentLimits takes a caller's tighter ones). All
// cryptography is crypto/rsa,
// crypto/ecdsa, crypto/sha*, crypto/x509.
//
// # Non-goals
//
//   - In Verify: XPath, XPath Filter 2.0, XSLT and base64 transforms, and
//     transforms after a canonicalisation: refused with ErrUnsupported.
//     Trusted lists use enveloped-signature plus one canonicalisation.
//   - XSLT anywhere: CheckSignature reports XSLT_TRANSFORM_UNSUPPORTED.
//   - The XPath namespace axis: namespace nodes belong to a node-set with
//     their element (see selection).
//   - The Canonical XML 1.1 xml:base fix-up for a subset whose omitted
//     ancestors carry xml:base: refused with ErrUnsupported.
//   - DTD processing, multi-byte encodings other than UTF-8 (UTF-16,
//     EBCDIC...), HMAC and DSA signatures, RetrievalMethod key material.
//   - In Verify: KeyValue key material, Manifest processing, detached and
//     enveloping signatures, counter-signatures; curves crypto/x509 lacks
//     (brainpool): the certificate does not parse and Verify reports
//     ErrNoCertificate. CheckSignature does all these.
//   - Certificate path validation, revocation and the XAdES
//     SigningCertificate check: the caller's validation policy does them.
package xmldsig
