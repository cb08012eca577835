package etsi_test

import (
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

type validateCase struct {
	name string
	// build returns the evidence and inputs; facts are GOOD for every link
	// Needs returns unless build sets in.Revocation itself.
	build         func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs)
	indication    verdict.Indication
	sub           verdict.SubIndication
	level         ades.Level // EvidenceLevel; 0: the signature's own level
	best          time.Time  // zero: vt
	warnings      []string   // codes that must be among the warnings
	noPath        bool
	noBuildFacts  bool // do not fill GOOD facts
	embeddedFacts bool
	at            time.Time // validation time; zero: vt
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tsGen := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	// The fixture signers are issued on 2025-01-01 (fixtures/pki).
	beforeIssuance := time.Date(2024, time.December, 31, 23, 59, 0, 0, time.UTC)
	cases := []validateCase{
		{
			name:       "5.3 basic signature validation: TOTAL_PASSED",
			build:      func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) { return signature(p.SignerRSA), inputs(p) },
			indication: verdict.TotalPassed,
		},
		{
			name: "5.2.2 FC: a reader problem that is no format failure is a warning",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Problems = []ades.Problem{{Code: "UNSUPPORTED_ATTRIBUTE", Message: "unsupported unsigned attribute 1.2.3"}}
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed,
			warnings:   []string{"UNSUPPORTED_ATTRIBUTE"},
		},
		{
			name: "5.2.3 ISC: no signing certificate",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.SigningCertificate = nil
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubNoSigningCertificateFound, noPath: true,
		},
		{
			name: "5.2.3 ISC: signing-certificate digest mismatch",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Reference = ades.CertificateReference{Present: true, IssuerSerialPresent: true}
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubNoSigningCertificateFound, noPath: true,
		},
		{
			name: "5.2.3 ISC: issuer-serial mismatch with matching digest is a warning",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Reference.IssuerSerialMatched = false
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed,
			warnings:   []string{etsi.CodeIssuerSerialMismatch},
		},
		{
			name: "5.2.3 ISC: no signing-certificate reference is a warning",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Reference = ades.CertificateReference{}
				sig.Level = ades.NotBaseline
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed,
			warnings:   []string{etsi.CodeSigningCertificateRefMissing},
		},
		{
			name: "5.2.2 FC: a PDF byte range that does not cover the document",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Problems = []ades.Problem{{Code: "BYTE_RANGE_INVALID", Message: "/ByteRange overlaps itself", FormatFailure: true}}
				return sig, inputs(p)
			},
			indication: verdict.TotalFailed, sub: verdict.SubFormatFailure, // the path is located all the same
		},
		{
			name: "5.2.7 CV: signed data not found (detached, no content)",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.DataObjects = nil
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubSignedDataNotFound, // the path is located all the same
		},
		{
			name: "5.2.7 CV: one data object not found",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.DataObjects = append(sig.DataObjects, ades.DataObject{Name: "b.xml"})
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubSignedDataNotFound, // the path is located all the same
		},
		{
			name: "5.2.7 CV: HASH_FAILURE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.DataObjects[0].Intact = false
				return sig, inputs(p)
			},
			indication: verdict.TotalFailed, sub: verdict.SubHashFailure, // the path is located all the same
		},
		{
			name: "5.2.7 CV: the digest algorithm is not supported (not a HASH_FAILURE)",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.DataObjects[0].Intact, sig.DataObjects[0].Unchecked = false, "UNSUPPORTED_ALGORITHM"
				sig.Value = ades.Check{Algorithm: "Ed448", Reason: "UNSUPPORTED_ALGORITHM"}
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubCryptoConstraintsFailureNoPOE, // the path is located all the same
		},
		{
			name: "5.2.7 CV: SIG_CRYPTO_FAILURE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Value = ades.Check{Done: true, Valid: false, Algorithm: "RSA-SHA256", Reason: "SIGNATURE_INVALID"}
				return sig, inputs(p)
			},
			indication: verdict.TotalFailed, sub: verdict.SubSigCryptoFailure, // the path is located all the same
		},
		{
			name: "5.2.7 CV: unsupported algorithm",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Value = ades.Check{Algorithm: "GOST", Reason: "UNSUPPORTED_ALGORITHM"}
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubCryptoConstraintsFailureNoPOE, // the path is located all the same
		},
		{
			name: "5.2.7 CV: signature value not checked for another reason",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Value = ades.Check{Reason: "MALFORMED_SIGNED_ATTRIBUTES"}
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubFormatFailure, // the path is located all the same
		},
		{
			name: "5.2.6 XCV: NO_CERTIFICATE_CHAIN_FOUND (untrusted root)",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				u := newUntrusted(t)
				sig := signature(p.SignerRSA)
				sig.SigningCertificate = u.Signer
				sig.Certificates = []*x509.Certificate{u.Signer, u.Root}
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubNoCertificateChainFound, noPath: true,
		},
		{
			name: "5.2.6 XCV: CERTIFICATE_CHAIN_GENERAL_FAILURE (issuer is not a CA, as DSS pairs it)",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				child := issuedBy(t, p.SignerRSA, p)
				sig := signature(p.SignerRSA)
				sig.SigningCertificate = child
				sig.Certificates = []*x509.Certificate{child, p.SignerRSA.Certificate}
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubCertificateChainGeneralFailure,
		},
		{
			name: "5.2.6 XCV + 5.3.4: expired signer, no POE: OUT_OF_BOUNDS_NO_POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.Expired)
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubOutOfBoundsNoPOE,
		},
		{
			name: "5.5.4 past signature validation: expired signer with a POE inside the validity passes",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.Expired)
				sig.Level = ades.LevelT
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC), p.TSA.Certificate)}
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed,
			best:       time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC),
			warnings:   []string{etsi.CodeExpiredAfterPOE},
		},
		{
			name: "5.5.4: expired signer with a POE after notAfter stays OUT_OF_BOUNDS_NO_POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.Expired)
				sig.Level = ades.LevelT
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
				return sig, inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubOutOfBoundsNoPOE, best: tsGen,
		},
		{
			name: "5.3.4: not yet valid signer: TOTAL_FAILED/NOT_YET_VALID",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				return signature(p.NotYetValid), inputs(p)
			},
			indication: verdict.TotalFailed, sub: verdict.SubNotYetValid,
			warnings: []string{etsi.CodeClaimedSigningTimeOutside},
		},
		{
			name: "5.5.4: a signature time-stamp before the signing certificate's issuance: TOTAL_FAILED/NOT_YET_VALID",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelT
				sig.ClaimedSigningTime = time.Time{}
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, beforeIssuance, p.TSA.Certificate)}
				return sig, inputs(p)
			},
			indication: verdict.TotalFailed, sub: verdict.SubNotYetValid, best: beforeIssuance,
		},
		{
			name: "5.2.6 XCV + 5.3.4: revoked signer, no POE: REVOKED_NO_POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.Revoked)
				in := inputs(p)
				in.Revocation = revokedFacts(sig, in, p.Revoked.Certificate, pki.RevocationTime)
				return sig, in
			},
			noBuildFacts: true,
			indication:   verdict.Indeterminate, sub: verdict.SubRevokedNoPOE,
		},
		{
			name: "5.5.4: revoked signer with a signature time-stamp before the revocation passes",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.Revoked)
				sig.ClaimedSigningTime = tsGen.Add(-time.Hour)
				sig.Level = ades.LevelT
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
				in := inputs(p)
				in.Revocation = revokedFacts(sig, in, p.Revoked.Certificate, pki.RevocationTime)
				return sig, in
			},
			noBuildFacts: true,
			indication:   verdict.TotalPassed, best: tsGen,
			warnings: []string{etsi.CodeRevokedAfterPOE},
		},
		{
			name: "5.5.4: revoked signer with a signature time-stamp after the revocation: REVOKED_NO_POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.Revoked)
				sig.Level = ades.LevelT
				sig.ClaimedSigningTime = vt.Add(-30 * time.Minute) // after the time-stamp: SAV warns
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, vt.Add(-time.Hour), p.TSA.Certificate)}
				in := inputs(p)
				in.Revocation = revokedFacts(sig, in, p.Revoked.Certificate, pki.RevocationTime)
				return sig, in
			},
			noBuildFacts: true,
			indication:   verdict.Indeterminate, sub: verdict.SubRevokedNoPOE, best: vt.Add(-time.Hour),
			warnings: []string{etsi.CodeClaimedSigningTimeAfterPOE},
		},
		{
			name: "5.2.6 XCV: revoked issuing CA: REVOKED_CA_NO_POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				in := inputs(p)
				in.Revocation = revokedFacts(sig, in, p.Intermediate.Certificate, pki.RevocationTime)
				return sig, in
			},
			noBuildFacts: true,
			indication:   verdict.Indeterminate, sub: verdict.SubRevokedCANoPOE,
		},
		{
			name: "5.2.6 XCV: revocation after the validation time does not count",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				in := inputs(p)
				in.Revocation = revokedFacts(sig, in, p.SignerRSA.Certificate, vt.Add(time.Hour))
				return sig, in
			},
			noBuildFacts: true,
			indication:   verdict.TotalPassed,
		},
		{
			name: "5.2.5 revocation freshness: no revocation data: TRY_LATER",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				return signature(p.SignerRSA), inputs(p)
			},
			noBuildFacts: true,
			indication:   verdict.Indeterminate, sub: verdict.SubTryLater,
		},
		{
			name: "5.2.5: UNKNOWN status and GOOD issued after the certificate expired are not usable: TRY_LATER",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				in := inputs(p)
				in.Revocation = goodFacts(sig, in, false)
				k := etsi.Key(p.SignerRSA.Certificate)
				unknown := fact(p.SignerRSA.Certificate, p.Intermediate.Certificate, revocation.Unknown, false)
				expired := fact(p.SignerRSA.Certificate, p.Intermediate.Certificate, revocation.Good, false)
				expired.ThisUpdate = p.SignerRSA.Certificate.NotAfter.Add(time.Hour)
				in.Revocation[k] = []revocation.Fact{unknown, expired}
				return sig, in
			},
			noBuildFacts: true,
			indication:   verdict.Indeterminate, sub: verdict.SubTryLater,
		},
		{
			name: "5.2.5: a certificate with ocsp-nocheck needs no revocation data",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.OCSPResponder)
				in := inputs(p)
				in.Revocation = goodFacts(sig, in, false) // only the intermediate's link
				return sig, in
			},
			noBuildFacts: true,
			indication:   verdict.TotalPassed,
		},
		{
			name: "5.2.6 XCV: the trust anchor itself needs no revocation data",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.SigningCertificate = p.Root.Certificate
				sig.Certificates = []*x509.Certificate{p.Root.Certificate}
				return sig, inputs(p)
			},
			noBuildFacts: true,
			indication:   verdict.TotalPassed,
		},
		{
			name: "5.2.8 SAV: claimed signing time outside the signer's validity is a warning",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.ClaimedSigningTime = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed,
			warnings:   []string{etsi.CodeClaimedSigningTimeOutside},
		},
		{
			name: "5.4 time-stamp: TSA not trusted gives no POE (TIMESTAMP_NOT_TRUSTED)",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				u := newUntrusted(t)
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelT
				ts := timestamp(ades.SignatureTimestamp, tsGen, u.TSA)
				ts.Certificates = []*x509.Certificate{u.TSA, u.Root}
				sig.Timestamps = []ades.Timestamp{ts}
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed, level: ades.LevelT,
			warnings: []string{etsi.CodeTimestampNotTrusted},
		},
		{
			name: "5.4 time-stamp: imprint mismatch gives no POE (TIMESTAMP_INVALID)",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelT
				ts := timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)
				ts.Imprint.Valid = false
				sig.Timestamps = []ades.Timestamp{ts}
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed, level: ades.LevelB,
			warnings: []string{etsi.CodeTimestampInvalid, etsi.CodeLevelNotSupported},
		},
		{
			name: "5.4 time-stamp: TSA without revocation data gives no POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelT
				in := inputs(p)
				in.Revocation = goodFacts(signature(p.SignerRSA), in, false)
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
				return sig, in
			},
			noBuildFacts: true,
			indication:   verdict.TotalPassed, level: ades.LevelT,
			warnings: []string{etsi.CodeTimestampRevocationUnknown},
		},
		{
			name: "5.5 signatures with time: a trusted signature time-stamp sets best-signature-time",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelT
				sig.Timestamps = []ades.Timestamp{
					timestamp(ades.SignatureTimestamp, vt.Add(-time.Hour), p.TSA.Certificate),
					timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate),
				}
				sig.ClaimedSigningTime = tsGen.Add(-time.Minute)
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed, level: ades.LevelT, best: tsGen,
		},
		{
			name: "5.6 LT: embedded revocation data for the signer keeps LT",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelLT
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
				sig.ClaimedSigningTime = tsGen.Add(-time.Minute)
				return sig, inputs(p)
			},
			embeddedFacts: true,
			indication:    verdict.TotalPassed, level: ades.LevelLT, best: tsGen,
		},
		{
			name: "5.6 LT: fetched revocation data only drops the level to T",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelLT
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
				sig.ClaimedSigningTime = tsGen.Add(-time.Minute)
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed, level: ades.LevelT, best: tsGen,
			warnings: []string{etsi.CodeLevelNotSupported},
		},
		{
			name: "5.6 LTA: a valid archive time-stamp keeps LTA",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelLTA
				sig.Timestamps = []ades.Timestamp{
					timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate),
					timestamp(ades.ArchiveTimestamp, tsGen.Add(time.Hour), p.TSA.Certificate),
				}
				sig.ClaimedSigningTime = tsGen.Add(-time.Minute)
				return sig, inputs(p)
			},
			embeddedFacts: true,
			indication:    verdict.TotalPassed, level: ades.LevelLTA, best: tsGen,
		},
		{
			name: "5.6 LTA: a broken archive time-stamp is ignored and the level drops to LT",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelLTA
				arc := timestamp(ades.ArchiveTimestamp, tsGen.Add(time.Hour), p.TSA.Certificate)
				arc.Imprint = ades.Check{Done: true, Valid: false, Algorithm: "SHA-256", Reason: "IMPRINT_MISMATCH"}
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate), arc}
				sig.ClaimedSigningTime = tsGen.Add(-time.Minute)
				return sig, inputs(p)
			},
			embeddedFacts: true,
			indication:    verdict.TotalPassed, level: ades.LevelLT, best: tsGen,
			warnings: []string{etsi.CodeArchiveTimestampInvalid, etsi.CodeLevelNotSupported},
		},
		{
			name: "5.6 LTA: an archive time-stamp gives a POE of the signature",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.Expired)
				sig.Level = ades.LevelLTA
				bad := timestamp(ades.SignatureTimestamp, time.Date(2020, 3, 1, 0, 0, 0, 0, time.UTC), p.TSA.Certificate)
				bad.Value = ades.Check{Done: true, Algorithm: "RSA-SHA256", Reason: "SIGNATURE_INVALID"}
				sig.Timestamps = []ades.Timestamp{bad, timestamp(ades.ArchiveTimestamp, time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC), p.TSA.Certificate)}
				return sig, inputs(p)
			},
			embeddedFacts: true,
			indication:    verdict.TotalPassed, level: ades.LevelB, best: time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC),
			warnings: []string{etsi.CodeTimestampInvalid, etsi.CodeExpiredAfterPOE, etsi.CodeLevelNotSupported},
		},
		{
			name: "5.2.5.4 freshness: GOOD data whose nextUpdate is before the validation time: TRY_LATER",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				in := inputs(p)
				in.Revocation = staleFacts(sig, in, vt.Add(-48*time.Hour))
				return sig, in
			},
			noBuildFacts: true,
			indication:   verdict.Indeterminate, sub: verdict.SubTryLater,
		},
		{
			name: "5.6 past signature validation: stale data issued after the POE passes",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelLT
				sig.ClaimedSigningTime = tsGen.Add(-time.Minute)
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
				in := inputs(p)
				// Stale embedded data for the signer, fresh data fetched
				// for the CA and the TSA.
				in.Revocation = staleFacts(sig, in, tsGen.Add(time.Hour))
				for _, l := range etsi.Needs(sig, in) {
					if !l.Cert.Equal(p.SignerRSA.Certificate) {
						in.Revocation[etsi.Key(l.Cert)] = []revocation.Fact{fact(l.Cert, l.Issuer, revocation.Good, false)}
					}
				}
				return sig, in
			},
			noBuildFacts: true,
			// The CA's data is not in the document: LT is not supported
			// (chainEmbedded).
			indication: verdict.TotalPassed, level: ades.LevelT, best: tsGen,
			warnings: []string{etsi.CodeLevelNotSupported},
		},
		{
			name: "5.6.2.4 past certificate validation: an archive time-stamp protects a signature time-stamp whose TSA expired",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelLTA
				sig.ClaimedSigningTime = tsGen.Add(-time.Minute)
				// The archive time-stamp's TSA is issued by the root and
				// valid until 2045; the fixture TSA and the issuing CA
				// expire in 2040.
				tsa := longTSA(t, p)
				arc := timestamp(ades.ArchiveTimestamp, time.Date(2039, 6, 1, 0, 0, 0, 0, time.UTC), tsa)
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate), arc}
				in := inputs(p)
				in.Revocation = staleFacts(sig, in, time.Date(2039, 6, 2, 0, 0, 0, 0, time.UTC))
				fresh := fact(tsa, p.Root.Certificate, revocation.Good, false)
				fresh.ThisUpdate, fresh.NextUpdate = time.Date(2040, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(2041, 1, 2, 0, 0, 0, 0, time.UTC)
				in.Revocation[etsi.Key(tsa)] = []revocation.Fact{fresh}
				return sig, in
			},
			noBuildFacts: true,
			at:           time.Date(2041, 1, 1, 0, 0, 0, 0, time.UTC),
			indication:   verdict.TotalPassed, level: ades.LevelLTA, best: tsGen,
			warnings: []string{etsi.CodeExpiredAfterPOE},
		},
		{
			name: "5.4: without the archive time-stamp the expired TSA gives no POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelT
				sig.ClaimedSigningTime = tsGen.Add(-time.Minute)
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
				in := inputs(p)
				in.Revocation = staleFacts(sig, in, time.Date(2039, 6, 2, 0, 0, 0, 0, time.UTC))
				return sig, in
			},
			noBuildFacts: true,
			at:           time.Date(2041, 1, 1, 0, 0, 0, 0, time.UTC),
			indication:   verdict.Indeterminate, sub: verdict.SubOutOfBoundsNoPOE, level: ades.LevelT,
			warnings: []string{etsi.CodeTimestampTSACertificateBad},
		},
		{
			name: "limits: more than MaxTimestamps time-stamps: the later ones are ignored",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelT
				for range etsi.MaxTimestamps {
					sig.Timestamps = append(sig.Timestamps, timestamp(ades.ContentTimestamp, tsGen, p.TSA.Certificate))
				}
				sig.Timestamps = append(sig.Timestamps, timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate))
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed, level: ades.LevelB,
			warnings: []string{etsi.CodeTooManyTimestamps, etsi.CodeLevelNotSupported},
		},
		{
			name: "5.4: a time-stamp generated after the validation time gives no POE; counter-signatures are left to their own validation",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelT
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, vt.Add(time.Hour), p.TSA.Certificate)}
				sig.CounterSignatures = []ades.Signature{signature(p.SignerECDSA)}
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed, level: ades.LevelT,
			warnings: []string{etsi.CodeTimestampAfterValidationTime},
		},
		{
			name: "5.4: a TSA certificate without id-kp-timeStamping gives no POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelT
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.SignerECDSA.Certificate)}
				return sig, inputs(p)
			},
			indication: verdict.TotalPassed, level: ades.LevelT,
			warnings: []string{etsi.CodeTimestampTSACertificateBad},
		},
		{
			name: "validation policy: zero validation time: POLICY_PROCESSING_ERROR",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				return signature(p.SignerRSA), inputs(p)
			},
			indication: verdict.Indeterminate, sub: verdict.SubPolicyProcessingError, noPath: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			p := newPKI(t)
			sig, in := c.build(t, p)
			if !c.noBuildFacts && in.Revocation == nil {
				in.Revocation = goodFacts(sig, in, c.embeddedFacts)
			}
			at := vt
			if !c.at.IsZero() {
				at = c.at
			}
			pol := etsi.Policy{ValidationTime: at}
			if c.sub == verdict.SubPolicyProcessingError {
				pol = etsi.Policy{}
			}
			r := etsi.Validate(sig, in, pol)
			t.Logf("result: %s %s errors %v warnings %v", r.Indication, r.SubIndication, r.Errors, r.Warnings)
			is.Equal(r.Indication, c.indication)
			is.Equal(r.SubIndication, c.sub)
			if c.indication == verdict.TotalPassed {
				is.Equal(len(r.Errors), 0)
			} else {
				is.True(len(r.Errors) > 0)
			}
			want := c.level
			if want == 0 {
				want = sig.Level
			}
			is.Equal(r.EvidenceLevel, want)
			if c.sub != verdict.SubPolicyProcessingError {
				best := c.best
				if best.IsZero() {
					best = at
				}
				is.True(r.BestSignatureTime.Equal(best))
			}
			is.Equal(r.Path == nil, c.noPath)
			for _, w := range c.warnings {
				if !slices.Contains(codes(r.Warnings), w) {
					t.Errorf("warning %s missing from %v", w, codes(r.Warnings))
				}
			}
			// Determinism: the same inputs give the same result.
			is.True(reflect.DeepEqual(r, etsi.Validate(sig, in, pol)))
		})
	}
}

// revokedFacts are GOOD facts for every link except target's, which is
// REVOKED at at.
func revokedFacts(sig ades.Signature, in etsi.Inputs, target *x509.Certificate, at time.Time) map[string][]revocation.Fact {
	facts := goodFacts(sig, in, false)
	for _, l := range etsi.Needs(sig, in) {
		if l.Cert.Equal(target) {
			f := fact(l.Cert, l.Issuer, revocation.Revoked, false)
			f.RevokedAt, f.Reason = at, 1
			facts[etsi.Key(l.Cert)] = []revocation.Fact{f}
		}
	}
	return facts
}

// staleFacts are GOOD facts for every link, issued at issued and valid
// for a day, embedded.
func staleFacts(sig ades.Signature, in etsi.Inputs, issued time.Time) map[string][]revocation.Fact {
	out := map[string][]revocation.Fact{}
	for _, l := range etsi.Needs(sig, in) {
		f := fact(l.Cert, l.Issuer, revocation.Good, true)
		f.ProducedAt, f.ThisUpdate, f.NextUpdate = issued, issued, issued.Add(24*time.Hour)
		out[etsi.Key(l.Cert)] = append(out[etsi.Key(l.Cert)], f)
	}
	return out
}

// longTSA returns a time-stamping certificate issued by the root, valid
// 2019 to 2045, for the fixture TSA's key.
func longTSA(t *testing.T, p *pki.PKI) *x509.Certificate {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber:   big.NewInt(0x9002),
		Subject:        pkix.Name{CommonName: "Long-lived TSA"},
		NotBefore:      time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:       time.Date(2045, 1, 1, 0, 0, 0, 0, time.UTC),
		KeyUsage:       x509.KeyUsageDigitalSignature,
		ExtKeyUsage:    []x509.ExtKeyUsage{x509.ExtKeyUsageTimeStamping},
		AuthorityKeyId: p.Root.Certificate.SubjectKeyId,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.Root.Certificate, p.TSA.Key.Public(), p.Root.Key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// issuedBy returns a certificate for another fixture key issued by the
// non-CA identity issuer.
func issuedBy(t *testing.T, issuer *pki.Identity, p *pki.PKI) *x509.Certificate {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber:   big.NewInt(0x9001),
		Subject:        pkix.Name{CommonName: "Issued by a non-CA"},
		NotBefore:      time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:       time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
		KeyUsage:       x509.KeyUsageDigitalSignature,
		AuthorityKeyId: issuer.Certificate.SubjectKeyId,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, issuer.Certificate, p.SignerECDSA.Key.Public(), issuer.Key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestValidateFixtureExpectations checks the B-level outcome of every
// fixtures/cades defect that concerns the process on evidence built as a
// reader would report it.
func TestValidateFixtureExpectations(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	u := newUntrusted(t)
	build := map[cades.Defect]func() ades.Signature{
		cades.NoDefect:            func() ades.Signature { return signature(p.SignerRSA) },
		cades.TamperedContent:     func() ades.Signature { s := signature(p.SignerRSA); s.DataObjects[0].Intact = false; return s },
		cades.WrongSigningCertRef: func() ades.Signature { s := signature(p.SignerRSA); s.Reference.DigestMatched = false; return s },
		cades.BadSignatureValue:   func() ades.Signature { s := signature(p.SignerRSA); s.Value.Valid = false; return s },
		cades.ExpiredSigner:       func() ades.Signature { return signature(p.Expired) },
		cades.RevokedSigner:       func() ades.Signature { return signature(p.Revoked) },
		cades.NotYetValidSigner:   func() ades.Signature { return signature(p.NotYetValid) },
		cades.UntrustedRoot: func() ades.Signature {
			s := signature(p.SignerRSA)
			s.SigningCertificate, s.Certificates = u.Signer, []*x509.Certificate{u.Signer, u.Root}
			return s
		},
		cades.TSANotTrusted: func() ades.Signature {
			s := signature(p.SignerRSA)
			s.Level = ades.LevelT
			ts := timestamp(ades.SignatureTimestamp, vt.Add(-time.Hour), u.TSA)
			ts.Certificates = []*x509.Certificate{u.TSA, u.Root}
			s.Timestamps = []ades.Timestamp{ts}
			return s
		},
	}
	for _, d := range cades.Defects() {
		mk, ok := build[d]
		if !ok {
			continue
		}
		t.Run(d.String(), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig := mk()
			in := inputs(p)
			in.Revocation = goodFacts(sig, in, false)
			if d == cades.RevokedSigner {
				in.Revocation = revokedFacts(sig, in, p.Revoked.Certificate, pki.RevocationTime)
			}
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
			ind, sub := cades.Expect(d)
			is.Equal(r.Indication, ind)
			is.Equal(r.SubIndication, sub)
		})
	}
}

func TestPolicyValidate(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	is.True(etsi.Policy{}.Validate() != nil)
	is.NoErr(etsi.Policy{ValidationTime: vt}.Validate())
}

func TestKey(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	k := etsi.Key(p.Root.Certificate)
	is.Equal(len(k), 64)
	is.Equal(k, etsi.Key(p.Root.Certificate))
	is.True(k != etsi.Key(p.Intermediate.Certificate))
	is.Equal(etsi.Key(nil), "")
}

func TestNeeds(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	sig := signature(p.SignerRSA)
	sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, vt, p.TSA.Certificate)}
	links := etsi.Needs(sig, inputs(p))
	want := []certpath.Link{
		{Cert: p.SignerRSA.Certificate, Issuer: p.Intermediate.Certificate},
		{Cert: p.Intermediate.Certificate, Issuer: p.Root.Certificate},
		{Cert: p.TSA.Certificate, Issuer: p.Intermediate.Certificate},
	}
	is.Equal(len(links), len(want))
	for i := range want {
		is.True(links[i].Cert.Equal(want[i].Cert))
		is.True(links[i].Issuer.Equal(want[i].Issuer))
	}

	// ocsp-nocheck certificates and missing signers give no links.
	sig = signature(p.OCSPResponder)
	sig.SigningCertificate = p.OCSPResponder.Certificate
	links = etsi.Needs(sig, inputs(p))
	is.Equal(len(links), 1)
	is.True(links[0].Cert.Equal(p.Intermediate.Certificate))
	sig.SigningCertificate = nil
	is.Equal(len(etsi.Needs(sig, inputs(p))), 0)
}

// TestValidateUntrustedRootInPlainWords: a signer whose chain ends at a
// self-signed root that is no anchor is told so in the error and in the
// time-stamp warning, not "issuer already on the path (loop)" (issue 22).
func TestValidateUntrustedRootInPlainWords(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	u := newUntrusted(t)
	const root = `the chain ends at the self-signed root "CN=SVC DSS Untrusted Test Root CA,C=XX", ` +
		`which is on no trusted list and is not a configured anchor`

	sig := signature(p.SignerRSA)
	sig.SigningCertificate, sig.Certificates = u.Signer, []*x509.Certificate{u.Signer, u.Root}
	sig.Level = ades.LevelT
	ts := timestamp(ades.SignatureTimestamp, vt.Add(-time.Hour), u.TSA)
	ts.Certificates = []*x509.Certificate{u.TSA, u.Root}
	sig.Timestamps = []ades.Timestamp{ts}
	r := etsi.Validate(sig, inputs(p), etsi.Policy{ValidationTime: vt})

	is.Equal(r.SubIndication, verdict.SubNoCertificateChainFound)
	is.Equal(len(r.Errors), 1)
	is.Equal(r.Errors[0].Message, "certpath: no certificate chain found for "+
		nameOf(u.Signer)+": "+root)
	var tsWarning string
	for _, w := range r.Warnings {
		if w.Code == etsi.CodeTimestampNotTrusted {
			tsWarning = w.Message
		}
	}
	is.True(strings.Contains(tsWarning, "certpath: no certificate chain found for "+nameOf(u.TSA)+": "+root+")"))
}

// nameOf is c's subject as certpath writes it.
func nameOf(c *x509.Certificate) string { return c.Subject.String() }
