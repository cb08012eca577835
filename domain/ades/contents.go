package ades

import (
	"crypto/sha256"
	"encoding/hex"
)

// Contents are what a document holds: its signatures and the time-stamps
// that are entries of their own, covering data rather than a signature (a
// time-stamp-only ASiC-S, an ASiC-E time-stamp over an ASiCManifest, a
// bare RFC 3161 token uploaded with its data).
type Contents struct {
	Signatures []Signature
	Timestamps []TimestampEntry
}

// A TimestampEntry is a time-stamp that is an entry of a document of its
// own (docs/decisions/0032): validated like a signature's time-stamp, and
// reported beside the signatures rather than under one.
type TimestampEntry struct {
	// ID identifies the entry within the document, stably (TimestampID).
	ID string
	// Name is the token's name: its container entry, or the uploaded
	// file's name for a bare token.
	Name string
	// Container is the type of the container the token came from
	// ("ASiC-S", "ASiC-E"), as Signature.Container; empty for a bare
	// token.
	Container string
	// Timestamp is the token's evidence: its own signature checked, its
	// imprint checked against what it covers (the data object, the
	// manifest, the detached data).
	Timestamp Timestamp
	// DataObjects are the data it covers, each with its digest check: the
	// data object of an ASiC-S or the detached file of a bare token (the
	// imprint is the check), the ASiCManifest and the manifest's entries
	// of an ASiC-E. Empty means the time-stamped data was not found.
	DataObjects []DataObject
	// Problems are format findings, as Signature.Problems: the
	// container's, and the entry's own.
	Problems []Problem
}

// Evidence is the entry seen as a signature whose only evidence is its
// time-stamp: what the plan of the TSA's certificate paths and the
// gathering of their revocation data read (etsi.NewPlan).
func (e TimestampEntry) Evidence() Signature {
	return Signature{ID: e.ID, Container: e.Container, Timestamps: []Timestamp{e.Timestamp}}
}

// TimestampID is the ID of a time-stamp entry whose token is token: "T-"
// and the first 16 hex digits of the token's SHA-256, as a signature's ID
// is "S-" and those of its value's.
func TimestampID(token []byte) string {
	sum := sha256.Sum256(token)
	return "T-" + hex.EncodeToString(sum[:])[:16]
}
