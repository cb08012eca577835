package verdict

import (
	"maps"
	"slices"
)

// A Sentence is one sentence of the verdict's summaries, named by a
// stable key: the indication or the sub-indication it renders for a
// signature, a DOCUMENT_ key for the document. The English text is
// kept here, in one table; a translation renders the same key in its
// own language.
type Sentence string

// Keys of the signature sentences besides the sub-indications: a
// signature that passed, and one that did not pass without a
// sub-indication.
const (
	SentencePassed        Sentence = Sentence(TotalPassed)
	SentenceFailed        Sentence = Sentence(TotalFailed)
	SentenceIndeterminate Sentence = Sentence(Indeterminate)
)

// Keys of the document sentences.
const (
	// SentenceDocumentEmpty: no signature and no time-stamp entry.
	SentenceDocumentEmpty Sentence = "DOCUMENT_EMPTY"
	// SentenceDocumentValid: valid, with at least one signature.
	SentenceDocumentValid Sentence = "DOCUMENT_VALID"
	// SentenceDocumentTimestamped: valid, time-stamp entries only.
	SentenceDocumentTimestamped Sentence = "DOCUMENT_TIMESTAMPED"
	// SentenceDocumentFailed: a signature of the document or a
	// time-stamp entry failed.
	SentenceDocumentFailed Sentence = "DOCUMENT_FAILED"
	// SentenceDocumentIndeterminate: none failed, but one is
	// indeterminate.
	SentenceDocumentIndeterminate Sentence = "DOCUMENT_INDETERMINATE"
)

// english is the table: every sub-indication of EN 319 102-1 (5.1.3),
// the indications and the document sentences.
// sentences_test.go fails when a declared sub-indication is missing.
var english = map[Sentence]string{
	SentencePassed:        "The signature is valid.",
	SentenceFailed:        "The signature is not valid.",
	SentenceIndeterminate: "The validity of the signature could not be established.",

	Sentence(SubFormatFailure):    "The signature is not valid: it is malformed, or the document does not show what was signed.",
	Sentence(SubHashFailure):      "The document was changed after it was signed.",
	Sentence(SubSigCryptoFailure): "The signature does not match the signer's certificate: it was not made with the signer's key, or it was damaged.",
	Sentence(SubRevoked):          "The signer's certificate had been revoked before the signature was made.",
	Sentence(SubExpired):          "The signature was made after the signer's certificate had expired.",
	Sentence(SubNotYetValid):      "The signature was made before the signer's certificate became valid.",

	Sentence(SubSigConstraintsFailure):          "The signature does not meet the validation policy's requirements on what it signs.",
	Sentence(SubChainConstraintsFailure):        "The signer's certificate chain does not meet the validation policy's requirements.",
	Sentence(SubCertificateChainGeneralFailure): "The signer's certificate chain could not be validated.",
	Sentence(SubCryptoConstraintsFailure):       "The signature uses an algorithm or a key size that is no longer considered secure.",
	Sentence(SubPolicyProcessingError):          "The validation policy could not be applied, so the signature could not be judged.",
	Sentence(SubSignaturePolicyNotAvailable):    "The signature policy the signature refers to is not available, so the signature could not be judged.",
	Sentence(SubTimestampOrderFailure):          "The signature's time-stamps contradict each other.",
	Sentence(SubNoSigningCertificateFound):      "The signer's certificate was not found, so it is not known who signed.",
	Sentence(SubNoCertificateChainFound):        "The signer's certificate does not lead to a trusted certification authority.",
	Sentence(SubNoCertificateChainFoundNoPOE):   "The signer's certificate does not lead to a trusted certification authority, and nothing proves the signature existed while it did.",
	Sentence(SubRevokedNoPOE):                   "The signer's certificate has been revoked, and nothing proves the signature was made before that.",
	Sentence(SubRevokedCANoPOE):                 "A certification authority of the signer's certificate chain has been revoked, and nothing proves the signature was made before that.",
	Sentence(SubOutOfBoundsNotRevoked):          "The signer's certificate is outside its validity period; it was not revoked, but nothing proves the signature was made while it was valid.",
	Sentence(SubOutOfBoundsNoPOE):               "The signer's certificate is outside its validity period, and nothing proves the signature was made while it was valid.",
	Sentence(SubRevocationOutOfBoundsNoPOE):     "The revocation data for the signer's certificate falls outside the certificate's validity period, and nothing proves the signature was made in time.",
	Sentence(SubCryptoConstraintsFailureNoPOE):  "The signature uses an algorithm that is no longer considered secure, and nothing proves it was made while the algorithm still was.",
	Sentence(SubNoPOE):                          "Nothing proves that the signature existed at a time when it could be validated.",
	Sentence(SubTryLater):                       "Whether the signer's certificate was revoked could not be established yet; try again later.",
	Sentence(SubSignedDataNotFound):             "The signed data was not found, so the signature cannot be checked against it.",

	SentenceDocumentEmpty:         "The document holds no signature and no time-stamp.",
	SentenceDocumentValid:         "The document is validly signed: each of its signatures is valid.",
	SentenceDocumentTimestamped:   "The document is validly time-stamped: each of its time-stamps is valid.",
	SentenceDocumentFailed:        "The document is not validly signed: at least one of its signatures or time-stamps is not valid.",
	SentenceDocumentIndeterminate: "The validity of the document could not be established: at least one of its signatures or time-stamps could not be judged.",
}

// English is the sentence in English; empty for a key the table does
// not hold.
func (s Sentence) English() string { return english[s] }

// ID is the catalogue's ID of the sentence's template: "summary." and
// the key.
func (s Sentence) ID() string { return "summary." + string(s) }

// Sentences returns the keys of the table, sorted: those a catalogue
// must translate.
func Sentences() []Sentence { return slices.Sorted(maps.Keys(english)) }

// SignatureSentence is the sentence of a signature of indication ind
// and sub-indication sub (nil or ignored when TOTAL_PASSED): the
// sub-indication's, else the indication's.
func SignatureSentence(ind Indication, sub *SubIndication) Sentence {
	if ind != TotalPassed && sub != nil && *sub != "" {
		return Sentence(*sub)
	}
	switch ind {
	case TotalPassed:
		return SentencePassed
	case TotalFailed, Failed:
		return SentenceFailed
	}
	return SentenceIndeterminate
}

// DocumentSentence is the sentence of s as a whole: as valid decides,
// over the signatures of the document (counter-signatures aside,
// docs/decisions/0017) and the time-stamp entries.
func (s ValidationSummary) DocumentSentence() Sentence {
	signatures, failed, unsure := 0, false, false
	for _, r := range s.Signatures {
		if r.CounterSignatureOf != "" {
			continue
		}
		signatures++
		failed = failed || r.Indication == TotalFailed
		unsure = unsure || r.Indication != TotalPassed && r.Indication != TotalFailed
	}
	for _, e := range s.Timestamps {
		failed = failed || e.Indication == Failed
		unsure = unsure || e.Indication != Passed && e.Indication != Failed
	}
	switch {
	case signatures == 0 && len(s.Timestamps) == 0:
		return SentenceDocumentEmpty
	case failed:
		return SentenceDocumentFailed
	case unsure:
		return SentenceDocumentIndeterminate
	case signatures == 0:
		return SentenceDocumentTimestamped
	}
	return SentenceDocumentValid
}
