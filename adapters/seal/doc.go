// Package seal is the validator's own seal: the key and certificate the
// operator configures (svc.dss.validator.report-seal.*), with which the
// validator signs what it issues about a verdict, so that the issued
// file can itself be validated (issue 23, docs/decisions/0037):
//
//   - [Seal.PDF] signs a PDF report as PAdES baseline B, or T with a
//     time-stamping unit: an incremental update adds an invisible
//     signature field whose signature dictionary (SubFilter
//     ETSI.CAdES.detached, /M the signing time) holds a detached CMS over
//     the /ByteRange, every byte of the file but the /Contents string
//     (ISO 32000-2, 12.8.1; ETSI EN 319 142-1). The CMS is
//     adapters/cmssign's: content-type, message-digest,
//     signing-certificate-v2, no signing-time.
//   - [Seal.JWS] signs a JSON payload as a compact JWS (go-jose) with
//     the seal certificate's chain in x5c: the Signature Validation
//     Token of RFC 9321.
package seal
