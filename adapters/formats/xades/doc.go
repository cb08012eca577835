// Package xades reads XAdES signatures (ETSI EN 319 132-1; XAdES 1.3.2 and
// 1.4.1, TS 101 903) and plain XMLDSig signatures into the evidence of
// domain/ades: what each signature covers and whether it is intact, its
// value, signer, signed properties, time-stamps and validation data. It
// judges nothing: the ETSI process does.
//
// # What it reads
//
//   - Every ds:Signature of an XML document (enveloped, enveloping,
//     detached) but those inside xades:CounterSignature, which become the
//     counter-signatures of the signature that holds them.
//   - Each signature is checked by package xmldsig (CheckSignature),
//     reference by reference; detached references are resolved against
//     the document's detached parts by name (a relative path matches its
//     base name). Manifest references are checked too and reported as
//     warnings: a ds:Manifest entry does not make the signature fail.
//   - xades:QualifyingProperties: SigningTime, SigningCertificate (V1,
//     IssuerSerial with an RFC 4514 name) and SigningCertificateV2
//     (IssuerSerialV2), SignaturePolicyIdentifier, CommitmentTypeIndication,
//     content time-stamps, SignatureTimeStamp, CertificateValues,
//     RevocationValues, TimeStampValidationData, CompleteCertificateRefs
//     (V2), CompleteRevocationRefs, SigAndRefsTimeStamp(V2),
//     RefsOnlyTimeStamp(V2), ArchiveTimeStamp (1.3.2 and 1.4.1) and
//     CounterSignature.
//   - The inputs of every time-stamp's message imprint, computed as EN 319
//     132-1 (5.2.8, 5.3, 5.5.2) and XAdES 1.3.2 (7.5.1, 7.5.2, 7.7.1)
//     define them, from the canonicalised elements and the references'
//     octets that xmldsig hands back.
//   - The level: XAdES_BASELINE_B/T/LT/LTA from the structure (EN 319
//     132-1, clause 6), or an extended form (XAdES_C, XAdES_X, XAdES_XL,
//     XAdES_A) named in ades.Signature.Form, or XML_NOT_ETSI for a plain
//     XMLDSig signature.
//   - Estonian BDOC 2.1 time-mark signatures, XAdES_BASELINE_LT_TM as
//     SiVa and libdigidocpp name them: no SignatureTimeStamp, and among
//     the RevocationValues an OCSP response about the signer (by serial
//     number and issuer name) whose nonce is a DER DigestInfo, read with
//     or without the OCTET STRING of RFC 8954 around it (under the BDOC
//     policy, PolicyBDOCTimeMark, any nonce). Its producedAt, its
//     certificates and the check of the nonce against the hash of the
//     signature value go in ades.Signature.TimeMark
//     (docs/decisions/0031-bdoc-time-mark.md).
//
// # Defences
//
// The document is parsed by xmldsig.ParseDocumentLimits: bounded elements,
// depth, attributes and text; a DOCTYPE is refused before anything is
// read (no entity expansion ever happens); signatures, counter-signature
// nesting, time-stamps, certificates and revocation values per signature
// are bounded (limits.go). Findings that make the format invalid (a
// SignedProperties not signed, a reference that does not resolve to
// exactly one element, more than one QualifyingProperties) are Problems
// with FormatFailure set; the others are warnings.
//
// # Non-goals
//
//   - XMLTimeStamp (XML time-stamp tokens), the distributed forms of the
//     time-stamps (ds:Include in a SigAndRefs or archive time-stamp),
//     QualifyingPropertiesReference, attribute certificates.
//   - Trust, revocation and path validation: the process does them.
package xades
