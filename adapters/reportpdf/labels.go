package reportpdf

import "maps"

// A labelID names one fixed text of the report. The IDs are the message
// IDs of the catalogue (adapters/catalog): keep them stable.
type labelID string

const (
	labelTitle              labelID = "report.title"
	labelSealed             labelID = "report.sealed"
	labelNotSealed          labelID = "report.notSealed"
	labelDocument           labelID = "report.document"
	labelDocumentName       labelID = "report.document.name"
	labelDocumentSHA256     labelID = "report.document.sha256"
	labelValidationTime     labelID = "report.document.validationTime"
	labelDocumentResult     labelID = "report.document.result"
	labelDocumentValid      labelID = "report.document.valid"
	labelDocumentNotValid   labelID = "report.document.notValid"
	labelSignatureCount     labelID = "report.document.signatureCount"
	labelTrustData          labelID = "report.trust"
	labelTrustState         labelID = "report.trust.state"
	labelTrustCurrent       labelID = "report.trust.current"
	labelTrustAuthenticated labelID = "report.trust.authenticated"
	labelTrustLastConfirmed labelID = "report.trust.lastConfirmed"
	labelTrustNotice        labelID = "report.trust.notice"
	labelTrustLists         labelID = "report.trust.lists"
	labelTrustNoList        labelID = "report.trust.noList"
	labelPrivateAnchors     labelID = "report.trust.privateAnchors"
	labelList               labelID = "report.list"
	labelListState          labelID = "report.list.state"
	labelListSequence       labelID = "report.list.sequence"
	labelListIssued         labelID = "report.list.issued"
	labelListNextUpdate     labelID = "report.list.nextUpdate"
	labelSignature          labelID = "report.signature"
	labelCounterSignatureOf labelID = "report.signature.counterSignatureOf"
	labelFormat             labelID = "report.signature.format"
	labelContainer          labelID = "report.signature.container"
	labelIndication         labelID = "report.signature.indication"
	labelSubIndication      labelID = "report.signature.subIndication"
	labelTrustFramework     labelID = "report.signature.trustFramework"
	labelAnchorCountry      labelID = "report.signature.anchorCountry"
	labelEIDAS              labelID = "report.signature.eidas"
	labelSwiss              labelID = "report.signature.swiss"
	labelHandwritten        labelID = "report.signature.handwritten"
	labelSignedData         labelID = "report.signature.signedData"
	labelPDFField           labelID = "report.signature.pdfField"
	labelTimestamps         labelID = "report.signature.timestamps"
	labelErrors             labelID = "report.signature.errors"
	labelWarnings           labelID = "report.signature.warnings"
	labelTimestampEntry     labelID = "report.timestampEntry"
	labelTSA                labelID = "report.timestamp.tsa"
	labelGenerationTime     labelID = "report.timestamp.generationTime"
	labelQualification      labelID = "report.timestamp.qualification"
	labelTimestampedData    labelID = "report.timestamp.data"
	labelYes                labelID = "report.yes"
	labelNo                 labelID = "report.no"
	labelNone               labelID = "report.none"
	labelNever              labelID = "report.never"
	labelNotApplicable      labelID = "report.notApplicable"
	labelPage               labelID = "report.page"
	labelDocumentSummary    labelID = "report.document.summary"
	labelTrustSnapshot      labelID = "report.trust.snapshot"
	labelSummary            labelID = "report.signature.summary"
	labelSignedBy           labelID = "report.signature.signedBy"
	labelPseudonym          labelID = "report.signature.pseudonym"
	labelOrganizationID     labelID = "report.signature.organizationIdentifier"
	labelCertificate        labelID = "report.signature.certificate"
	labelSigningTime        labelID = "report.signature.signingTime"
	labelBestSignatureTime  labelID = "report.signature.bestSignatureTime"
	labelNotClaimed         labelID = "report.signature.notClaimed"
	labelNotProved          labelID = "report.signature.notProved"
	labelScope              labelID = "report.signature.scope"
	labelChain              labelID = "report.signature.chain"
	labelChainAnchor        labelID = "report.chain.anchor"
	labelChainRevocation    labelID = "report.chain.revocation"
	labelUnknownSigner      labelID = "report.signature.unknownSigner"
)

// english is the report's text in English, the text of a label that
// Options.Label does not give. Texts with verbs take their values
// through fmt: %s, %d; a translation keeps them, in the same order.
var english = map[labelID]string{
	labelTitle:              "Signature validation report",
	labelSealed:             "This report is sealed by %s: its own PAdES signature proves that it comes from this validator and has not been changed since.",
	labelNotSealed:          "This report is not sealed: the validator has no seal key configured, so nothing in this file proves where it comes from or that it is unchanged.",
	labelDocument:           "Document",
	labelDocumentName:       "Name",
	labelDocumentSHA256:     "SHA-256",
	labelValidationTime:     "Validation time",
	labelDocumentResult:     "Result",
	labelDocumentValid:      "Valid: every signature of the document passed",
	labelDocumentNotValid:   "Not valid: see the signatures below",
	labelSignatureCount:     "Signatures",
	labelTrustData:          "Trust data at validation",
	labelTrustState:         "State",
	labelTrustCurrent:       "Confirmed current",
	labelTrustAuthenticated: "Lists authenticated",
	labelTrustLastConfirmed: "Last confirmed online",
	labelTrustNotice:        "Notice",
	labelTrustLists:         "Trusted lists",
	labelTrustNoList:        "No trusted list was loaded.",
	labelPrivateAnchors:     "Private anchors",
	labelList:               "List",
	labelListState:          "State, authenticity",
	labelListSequence:       "Sequence number",
	labelListIssued:         "Issued",
	labelListNextUpdate:     "Next update",
	labelSignature:          "Signature %d of %d",
	labelCounterSignatureOf: "Counter-signs",
	labelFormat:             "Format",
	labelContainer:          "Container",
	labelIndication:         "Indication",
	labelSubIndication:      "Sub-indication",
	labelTrustFramework:     "Trust framework",
	labelAnchorCountry:      "Anchor's list",
	labelEIDAS:              "eIDAS qualification",
	labelSwiss:              "Swiss qualification (ZertES)",
	labelHandwritten:        "Equivalent to handwritten",
	labelSignedData:         "Signed data",
	labelPDFField:           "PDF field, revision",
	labelTimestamps:         "Time-stamps",
	labelErrors:             "Errors",
	labelWarnings:           "Warnings",
	labelTimestampEntry:     "Time-stamp %d of %d",
	labelTSA:                "Time-stamping authority",
	labelGenerationTime:     "Time",
	labelQualification:      "Qualification",
	labelTimestampedData:    "Time-stamped data",
	labelYes:                "yes",
	labelNo:                 "no",
	labelNone:               "none",
	labelNever:              "never",
	labelNotApplicable:      "not applicable",
	labelPage:               "page %d",
	labelDocumentSummary:    "In short",
	labelTrustSnapshot:      "Trust snapshot (SHA-256)",
	labelSummary:            "In short",
	labelSignedBy:           "Signed by",
	labelPseudonym:          "%s (pseudonym)",
	labelOrganizationID:     "Organisation identifier",
	labelCertificate:        "Signing certificate",
	labelSigningTime:        "Signing time claimed by the signer",
	labelBestSignatureTime:  "Signature proved to exist at",
	labelNotClaimed:         "not claimed",
	labelNotProved:          "not proved by a time-stamp: only the validation time stands",
	labelScope:              "Covers",
	labelChain:              "Certificate chain",
	labelChainAnchor:        "trust anchor (%s)",
	labelChainRevocation:    "%s by %s of %s",
	labelUnknownSigner:      "not identified: no signing certificate was found",
}

// labels are the report's texts in one language.
type labels map[labelID]string

// Labels returns the report's fixed texts in English, by ID: those a
// catalogue translates for Options.Label.
func Labels() map[string]string {
	out := make(map[string]string, len(english))
	for id, s := range english {
		out[string(id)] = s
	}
	return out
}

// labelsFor returns the texts that label gives, English for the others.
func labelsFor(label func(id string) (string, bool)) labels {
	l := maps.Clone(english)
	if label == nil {
		return l
	}
	for id := range l {
		if s, ok := label(string(id)); ok {
			l[id] = s
		}
	}
	return l
}

// text returns the text of id.
func (l labels) text(id labelID) string { return l[id] }
