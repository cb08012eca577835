package trustlist

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnparseable is wrapped by every error [Parse] returns: the bytes are
// not a usable ETSI TS 119 612 trusted list (malformed XML, another
// document type, a malformed mandatory value, or over a limit). The
// service reports this "parse failure" apart from download failures,
// because it drops the list's anchors (validation-service.md §3 rule 8).
var ErrUnparseable = errors.New("trustlist: unparseable trusted list")

// ErrLimit is wrapped, beside [ErrUnparseable], when a document exceeds one
// of the limits in limits.go.
var ErrLimit = errors.New("trustlist: limit exceeded")

// ErrNotTrustedList is wrapped, beside [ErrUnparseable], when the document
// is well-formed XML whose root is not a TS 119 612
// TrustServiceStatusList.
var ErrNotTrustedList = errors.New("trustlist: not a TrustServiceStatusList")

// A ParseError says where a document failed to parse. It unwraps to both
// [ErrUnparseable] and its cause, so callers branch with errors.Is.
type ParseError struct {
	// Path locates the offending element, e.g.
	// "TrustServiceProvider[2]/TSPService[0]/StatusStartingTime" (indexes
	// count from 0). Empty for a document-level failure.
	Path string
	// Line and Column are the input position of an XML syntax or limit
	// error; zero when the failure is in a value, found after decoding.
	Line, Column int
	Err          error
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("trustlist: unparseable trusted list")
	if e.Path != "" {
		b.WriteString(": ")
		b.WriteString(e.Path)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d, column %d)", e.Line, e.Column)
	}
	if e.Err != nil {
		b.WriteString(": ")
		// Causes from this package carry the same prefix; say it once.
		b.WriteString(strings.TrimPrefix(e.Err.Error(), "trustlist: "))
	}
	return b.String()
}

// Unwrap returns [ErrUnparseable] and the cause.
func (e *ParseError) Unwrap() []error { return []error{ErrUnparseable, e.Err} }

// A LimitError says which limit of limits.go a document exceeded.
type LimitError struct {
	// What names the limit: "input size", "depth", "elements",
	// "attributes", "text bytes", "OtherTSLPointer",
	// "TrustServiceProvider", "TSPService", "ServiceHistoryInstance",
	// "TrustServiceEquivalenceInformation", "TrustServiceTSLType".
	What string
	Max  int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("trustlist: %s exceeds the limit of %d", e.What, e.Max)
}

// Unwrap returns [ErrLimit].
func (e *LimitError) Unwrap() error { return ErrLimit }
