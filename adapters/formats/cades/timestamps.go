package cades

import (
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/adapters/formats/tsp"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/ports"
)

// timestampStats counts the time-stamps whose token parsed, by kind, for
// the level.
type timestampStats struct {
	signature, archiveV3 int
	problems             []ades.Problem
	over                 bool
}

func (s *timestampStats) problem(code, format string, args ...any) {
	s.problems = append(s.problems, ades.Problem{Code: code, Message: fmt.Sprintf(format, args...)})
}

// timestamps reads the time-stamps of si in document order: the
// content-time-stamps of the signed attributes, then the
// signature-time-stamps and archive time-stamps of the unsigned
// attributes in their order. content is the signed content (found
// false when it is not available); certs are the signature's
// certificates, candidates for the TSA certificate.
func (rd *reading) timestamps(si, parent *cms.SignerInfo, content []byte, found bool, certs []*x509.Certificate) ([]ades.Timestamp, timestampStats, error) {
	var out []ades.Timestamp
	var stats timestampStats
	// Streamed content (ReadEmbedded) is not held: an archive time-stamp
	// over it cannot be checked.
	held := found && (content != nil || !rd.streamed())
	add := func(typ ades.TimestampType, value []byte, imprint func(*tsp.Token) ades.Check) error {
		if len(out) == MaxTimestamps {
			return fmt.Errorf("%w: %w: more than %d time-stamps in one signature", ports.ErrUnreadable, errLimit, MaxTimestamps)
		}
		tok, err := tsp.Parse(value)
		if err != nil {
			stats.problem(CodeTimestampUnreadable, "time-stamp token: %v", err)
			return nil
		}
		ts := tokenEvidence(typ, tok, certs)
		ts.Imprint = imprint(tok)
		out = append(out, ts)
		if typ == ades.SignatureTimestamp {
			stats.signature++
		}
		return nil
	}

	for _, a := range si.SignedAttrs.Find(cms.OIDAttrContentTimeStamp) {
		for _, v := range a.Values {
			err := add(ades.ContentTimestamp, v, func(tok *tsp.Token) ades.Check {
				if !found {
					return ades.Check{Algorithm: cert.HashName(tok.Info.MessageImprint.Hash), Reason: CodeNoContent}
				}
				return imprintCheck(tok, tok.CheckImprint(content))
			})
			if err != nil {
				return nil, stats, err
			}
		}
	}
	for _, a := range si.UnsignedAttrs {
		var err error
		switch {
		case a.Type.Equal(cms.OIDAttrTimeStampToken):
			for _, v := range a.Values {
				if err = add(ades.SignatureTimestamp, v, func(tok *tsp.Token) ades.Check {
					return imprintCheck(tok, tok.CheckImprint(si.Signature))
				}); err != nil {
					break
				}
			}
		case a.Type.Equal(cms.OIDAttrArchiveTimeStampV3):
			for _, v := range a.Values {
				if err = add(ades.ArchiveTimestamp, v, func(tok *tsp.Token) ades.Check {
					if parent != nil {
						return ades.Check{Reason: CodeImprintNotComputed}
					}
					return rd.archiveV3Imprint(&stats, si, tok, content, held)
				}); err != nil {
					break
				}
				stats.archiveV3++
			}
		case a.Type.Equal(OIDAttrArchiveTimeStampV2):
			for _, v := range a.Values {
				if err = add(ades.ArchiveTimestamp, v, func(tok *tsp.Token) ades.Check {
					if parent != nil {
						return ades.Check{Reason: CodeImprintNotComputed}
					}
					return rd.archiveV2Imprint(si, a, tok, content, held)
				}); err != nil {
					break
				}
			}
		}
		if err != nil {
			return nil, stats, err
		}
	}
	return out, stats, nil
}

// TimestampEvidence is the evidence of a time-stamp token found outside a
// CMS signature (a PDF document time-stamp): its own signature checked,
// the certificates and revocation data it carries, and the outcome of its
// imprint comparison, imprintErr (from tsp.Token.CheckImprintReader).
func TimestampEvidence(typ ades.TimestampType, tok *tsp.Token, imprintErr error, certs []*x509.Certificate) ades.Timestamp {
	ts := tokenEvidence(typ, tok, certs)
	ts.Imprint = imprintCheck(tok, imprintErr)
	return ts
}

// tokenEvidence checks the token's own signature and gathers what it
// carries.
func tokenEvidence(typ ades.TimestampType, tok *tsp.Token, certs []*x509.Certificate) ades.Timestamp {
	ts := ades.Timestamp{Type: typ, GenTime: tok.Info.GenTime, Token: tok.Raw}
	tsa, err := tok.Verify(tsp.VerifyOptions{Certificates: certs})
	ts.TSACertificate = tsa
	switch {
	case errors.Is(err, tsp.ErrNoSigningCertificate), errors.Is(err, tsp.ErrSigningCertificateMismatch):
		// The signature verified; the reference says what is wrong.
		err = nil
	}
	ts.Value = valueCheck(tok.Signer, err)
	if ts.Value.Done && !ts.Value.Valid && errors.Is(err, cms.ErrDigestMismatch) {
		ts.Value.Reason = CodeSignatureInvalid // the TSTInfo was altered
	}
	if ids, err := tok.Signer.SigningCertificate(); err == nil && ids != nil {
		ts.Reference = reference(ids, tsa)
	} else if err != nil {
		ts.Reference = ades.CertificateReference{Present: true}
	}
	vd := newValidationData()
	vd.addSignedData(tok.SignedData)
	vd.addAttributes(tok.Signer)
	ts.Certificates, ts.CRLs, ts.OCSPResponses = vd.Certificates, vd.CRLs, vd.OCSPResponses
	return ts
}

// imprintCheck turns the outcome of an imprint comparison into a Check.
func imprintCheck(tok *tsp.Token, err error) ades.Check {
	return imprintCheckWith(tok, err, cadesImprintCodes)
}

// ImprintCodes are the reason codes a reader gives an imprint it could
// not match, each reader in its own namespace (CADES_, XADES_...).
type ImprintCodes struct {
	NoContent, NotComputed, Mismatch, UnsupportedAlgorithm string
}

var cadesImprintCodes = ImprintCodes{
	NoContent: CodeNoContent, NotComputed: CodeImprintNotComputed,
	Mismatch: CodeImprintMismatch, UnsupportedAlgorithm: CodeUnsupportedAlgorithm,
}

// ErrNoContent is wrapped by the error of a time-stamp's input when a
// data object it covers was not supplied (TimestampEvidenceOf).
var ErrNoContent = errors.New("signed data not available")

// TimestampEvidenceOf is TimestampEvidence for the readers of the other
// formats, XAdES and JAdES: the imprint's input is computed only now, by
// input, whose error says why there is none (wrapping ErrNoContent when
// data is missing, anything else when it cannot be computed), and the
// reasons are named with codes.
func TimestampEvidenceOf(typ ades.TimestampType, tok *tsp.Token, certs []*x509.Certificate, input func() ([]byte, error), codes ImprintCodes) ades.Timestamp {
	ts := tokenEvidence(typ, tok, certs)
	data, err := input()
	switch {
	case errors.Is(err, ErrNoContent):
		ts.Imprint = ades.Check{Algorithm: cert.HashName(tok.Info.MessageImprint.Hash), Reason: codes.NoContent}
	case err != nil:
		ts.Imprint = ades.Check{Algorithm: cert.HashName(tok.Info.MessageImprint.Hash), Reason: codes.NotComputed}
	default:
		ts.Imprint = imprintCheckWith(tok, tok.CheckImprint(data), codes)
	}
	return ts
}

// imprintCheckWith is the check of tok's imprint whose comparison gave
// err, its reasons named with codes.
func imprintCheckWith(tok *tsp.Token, err error, codes ImprintCodes) ades.Check {
	c := ades.Check{Algorithm: cert.HashName(tok.Info.MessageImprint.Hash)}
	switch {
	case err == nil:
		c.Done, c.Valid = true, true
	case errors.Is(err, tsp.ErrImprintMismatch):
		c.Done, c.Reason = true, codes.Mismatch
	case errors.Is(err, tsp.ErrUnsupported):
		c.Reason = codes.UnsupportedAlgorithm
	default:
		c.Reason = codes.NotComputed
	}
	return c
}

// archiveV3Imprint checks the imprint of an archive-time-stamp-v3 of si
// with the hash index its token carries, and that index against the
// signature.
func (rd *reading) archiveV3Imprint(stats *timestampStats, si *cms.SignerInfo, tok *tsp.Token, content []byte, found bool) ades.Check {
	h := tok.Info.MessageImprint.Hash
	c := ades.Check{Algorithm: cert.HashName(h)}
	if !found {
		c.Reason = CodeNoContent
		return c
	}
	var index []byte
	perValue := true
	for _, kind := range []struct {
		oid      []int
		perValue bool
	}{{OIDAttrATSHashIndexV3, true}, {OIDAttrATSHashIndexV2, false}, {OIDAttrATSHashIndex, false}} {
		if v, ok, err := tok.Signer.UnsignedAttrs.Single(kind.oid); err == nil && ok {
			index, perValue = v, kind.perValue
			break
		}
	}
	if index == nil {
		stats.problem(CodeATSHashIndexMissing, "archive-time-stamp-v3 token without one ats-hash-index(-v3)")
		c.Reason = CodeATSHashIndexMissing
		return c
	}
	if h == 0 || !h.Available() {
		c.Reason = CodeUnsupportedAlgorithm
		return c
	}
	imprint, err := ArchiveImprintV3(rd.sd, si, h, content, index)
	if err != nil {
		c.Reason = CodeImprintNotComputed
		stats.problem(CodeImprintNotComputed, "archive-time-stamp-v3: %v", err)
		return c
	}
	if idx, err := ParseHashIndex(index, perValue); err != nil {
		stats.problem(CodeATSHashIndexMismatch, "ats-hash-index: %v", err)
	} else if ok, err := checkHashIndex(rd.sd, si, idx); err == nil && !ok {
		stats.problem(CodeATSHashIndexMismatch, "ats-hash-index names elements the signature does not have")
	}
	return imprintCheck(tok, tok.CheckImprintDigest(imprint))
}
