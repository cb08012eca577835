package trust

import (
	"bytes"
	"slices"
	"time"
)

// A Snapshot is the merged trust store at one moment: every public list
// with what this service knows of it, and the private CA anchors. It is
// built whole by a refresh and never changed afterwards; one validation
// reads exactly one snapshot.
type Snapshot struct {
	// Lists are the public lists in a stable order: the EU LOTL, the
	// member-state lists by territory, then the Swiss list.
	Lists     []ListState
	PrivateCA PrivateCA
}

// ListState is one public list as the trust store holds it.
type ListState struct {
	// Territory is the scheme territory: "EU" for the LOTL, "DE", "CH"…
	Territory string
	Kind      Kind
	Framework Framework
	URL       string
	// List is the copy in use; nil when no usable copy exists.
	List *List
	// SHA256 is the SHA-256 of the bytes of the copy in use, as read;
	// zero when List is nil or the bytes were not kept.
	SHA256 [32]byte
	// Authenticity is the outcome of checking the copy in use: VALID or
	// NOT_CHECKED, as a refused copy is never in use (see [Check.Refused]).
	Authenticity Authenticity
	// SHA1Signature reports that the copy in use is signed with SHA-1 (its
	// signature method or a reference digest): accepted, with a warning.
	SHA1Signature bool
	// Refusal is the check of the latest copy read that was refused
	// (INVALID or INDETERMINATE): downloaded, unchanged or loaded from the
	// cache, it replaced nothing, and a copy in use is the last one that
	// authenticated. Zero once a copy is adopted again.
	Refusal Check
	// AnchorSource names what the list's signature is checked against
	// (the OJ keystore file, the Swiss signer certificate file, the LOTL
	// pointer), so that a banner can say what to supply.
	AnchorSource string
	// LastOnlineConfirmation is when a refresh last confirmed the copy
	// with its publisher; zero when never. It survives restarts.
	LastOnlineConfirmation time.Time
	// ConfirmedInThisProcess is true once a refresh of this list
	// succeeded in this process.
	ConfirmedInThisProcess bool
	// ConsecutiveFailures counts failed refreshes since the last success.
	ConsecutiveFailures int
	// ParseFailed is true when the publisher's latest copy did not parse
	// and its anchors were dropped (validation-service.md §3 rule 8).
	ParseFailed bool
	// LastFailure is a short, stable category of the latest failure
	// ("download", "parse", "signature-invalid"…), empty after a success.
	LastFailure string
	// LastRefresh is the outcome of the latest online refresh: "ok" or
	// the LastFailure it left; LastRefreshAt is when it ran. They survive
	// restarts through the cache. Empty before the first refresh.
	LastRefresh   string
	LastRefreshAt time.Time
}

// PrivateCA is the state of the administrator-supplied anchors.
type PrivateCA struct {
	Enabled   bool
	Directory string
	Anchors   []PrivateAnchor
	// Skipped names files that could not be read.
	Skipped []string
	// Problem is set when the directory itself could not be read.
	Problem string
}

// Anchors counts the distinct service certificates the list yields.
// Every verdict's trust data reports it, so it sorts references to the
// certificates rather than copying thousands of them into a set.
func (s ListState) Anchors() int {
	if s.List == nil {
		return 0
	}
	var certs [][]byte
	for _, p := range s.List.Providers {
		for _, svc := range p.Services {
			certs = append(certs, svc.Identity.Certificates...)
		}
	}
	slices.SortFunc(certs, bytes.Compare)
	return len(slices.CompactFunc(certs, bytes.Equal))
}
