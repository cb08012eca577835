package cryptosuite

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/algorithm"
)

// MaxSize bounds a suite document: TS 119 312's own is some 30 kB.
const MaxSize = 1 << 20

// ErrInvalid is wrapped by every error of [Parse].
var ErrInvalid = errors.New("cryptosuite: invalid cryptographic suite document")

// An Error says where in a document the problem is and what it is.
type Error struct {
	// Path locates the problem, as XPath would: the element names of the
	// TS 119 322 form with indexes counted from 1, the same for XML and
	// JSON ("/SecuritySuitabilityPolicy/Algorithm[3]/Evaluation[1]/Validity/End").
	// Empty for a problem of the whole input.
	Path string
	// Problem says what is wrong, in English.
	Problem string
	// Err is the cause from a parser, if any.
	Err error
}

func (e *Error) Error() string {
	s := "cryptosuite: "
	if e.Path != "" {
		s += e.Path + ": "
	}
	return s + e.Problem
}

// Unwrap returns [ErrInvalid] and the cause.
func (e *Error) Unwrap() []error { return []error{ErrInvalid, e.Err} }

func problem(path, format string, args ...any) *Error {
	return &Error{Path: path, Problem: fmt.Sprintf(format, args...)}
}

// document is what both forms hold that Parse uses.
type document struct {
	path       string // of the root
	name       string // PolicyName/Name
	version    string // PolicyName/ObjectIdentifier
	issued     string // PolicyIssueDate, as written
	algorithms []entry
}

type entry struct {
	path        string
	name        string
	oids, uris  []string
	evaluations []evaluation
}

type evaluation struct {
	path       string
	parameters []parameter
	// start and end are as written, with the paths of their elements;
	// empty when absent.
	start, end         string
	startPath, endPath string
}

type parameter struct {
	path, name string
	min, max   string // as written; empty when absent
	minPath    string
	maxPath    string
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Parse reads a cryptographic-suite document, XML or JSON (told apart by
// its first character), into a catalogue. Errors are [*Error], wrapping
// [ErrInvalid].
func Parse(data []byte) (algorithm.Catalogue, error) {
	if len(data) > MaxSize {
		return algorithm.Catalogue{}, problem("", "the document has %d bytes, more than the %d allowed", len(data), MaxSize)
	}
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, utf8BOM), " \t\r\n")
	var doc document
	var err error
	switch {
	case len(trimmed) == 0:
		return algorithm.Catalogue{}, problem("", "the document is empty")
	case trimmed[0] == '<':
		doc, err = readXML(data)
	case trimmed[0] == '{':
		doc, err = readJSON(trimmed)
	default:
		return algorithm.Catalogue{}, problem("", "the document is neither XML nor JSON")
	}
	if err != nil {
		return algorithm.Catalogue{}, err
	}
	return doc.catalogue()
}

// catalogue is the catalogue doc describes.
func (doc document) catalogue() (algorithm.Catalogue, error) {
	source := doc.source()
	if doc.issued != "" {
		if _, ok := parseTime(doc.issued); !ok {
			return algorithm.Catalogue{}, problem(doc.path+"/PolicyIssueDate", "%q is not a date", doc.issued)
		}
	}
	if len(doc.algorithms) == 0 {
		return algorithm.Catalogue{}, problem(doc.path, "the document lists no Algorithm")
	}
	var b algorithm.Builder
	judged := 0
	for _, a := range doc.algorithms {
		id, known := identify(a.name, a.oids, a.uris)
		if a.name == "" && len(a.oids) == 0 && len(a.uris) == 0 {
			return algorithm.Catalogue{}, problem(a.path+"/AlgorithmIdentifier", "names no algorithm: no Name, ObjectIdentifier or URI")
		}
		if len(a.evaluations) == 0 {
			return algorithm.Catalogue{}, problem(a.path, "algorithm %s has no Evaluation", a.label())
		}
		for _, e := range a.evaluations {
			l, minBits, maxBits, err := e.read(id, known, a, source)
			if err != nil {
				return algorithm.Catalogue{}, err
			}
			if !known {
				continue
			}
			switch id.kind {
			case kindDigest:
				b.Digest(id.digest, l)
			case kindSignature:
				b.Signature(id.key, id.digest, minBits, maxBits, l)
			case kindKey:
				b.Key(id.key, minBits, maxBits, l)
			case kindCurve:
				b.Key(id.key, id.bits, id.bits, l)
			}
		}
		if known {
			judged++
		}
	}
	if judged == 0 {
		return algorithm.Catalogue{}, problem(doc.path, "the document lists no algorithm this validator judges (digest, RSA, DSA, ECDSA or EdDSA)")
	}
	return b.Catalogue(), nil
}

// source names the document for the limits it gives: "ETSI ESI
// Cryptographic Suites 2.1.1 (TS 119 322 document issued
// 2026-02-01T00:00:00.000+01:00)".
func (doc document) source() string {
	name := strings.TrimSpace(doc.name)
	if name == "" {
		name = "cryptographic suite"
	}
	if v := strings.TrimSpace(doc.version); v != "" {
		name += " " + v
	}
	if doc.issued != "" {
		return name + " (TS 119 322 document issued " + strings.TrimSpace(doc.issued) + ")"
	}
	return name + " (TS 119 322 document)"
}

// label names an algorithm of the document in errors.
func (a entry) label() string {
	switch {
	case a.name != "":
		return strconv.Quote(a.name)
	case len(a.oids) > 0:
		return a.oids[0]
	case len(a.uris) > 0:
		return a.uris[0]
	}
	return "(unnamed)"
}

// read checks an evaluation and returns its limit and the key sizes it
// covers (0 when unbounded). An evaluation of an algorithm the validator
// skips is still checked: a malformed document is refused whole.
func (e evaluation) read(id identity, known bool, a entry, source string) (l algorithm.Limit, minBits, maxBits int, err error) {
	l.Source = source
	if e.start != "" {
		if _, ok := parseTime(e.start); !ok {
			return l, 0, 0, problem(e.startPath, "%q is not a date", e.start)
		}
	}
	if e.end != "" {
		t, ok := parseTime(e.end)
		if !ok {
			return l, 0, 0, problem(e.endPath, "%q is not a date", e.end)
		}
		l.Until = t
	}
	seen := map[string]bool{}
	for _, p := range e.parameters {
		if p.name == "" {
			return l, 0, 0, problem(p.path, "a Parameter without its name")
		}
		if seen[p.name] {
			return l, 0, 0, problem(p.path, "parameter %q is given twice in one Evaluation", p.name)
		}
		seen[p.name] = true
		if p.min == "" && p.max == "" {
			return l, 0, 0, problem(p.path, "parameter %q has neither Min nor Max", p.name)
		}
		lo, hi := 0, 0
		if p.min != "" {
			if lo, err = bits(p.min, p.minPath); err != nil {
				return l, 0, 0, err
			}
		}
		if p.max != "" {
			if hi, err = bits(p.max, p.maxPath); err != nil {
				return l, 0, 0, err
			}
			if hi < lo {
				return l, 0, 0, problem(p.path, "parameter %q has Max %d below Min %d", p.name, hi, lo)
			}
		}
		if !known {
			continue
		}
		switch {
		case p.name == id.size && id.size != "":
			minBits, maxBits = lo, hi
		case contains(id.others, p.name):
		default:
			return l, 0, 0, problem(p.path, "parameter %q does not apply to algorithm %s%s", p.name, a.label(), expected(id))
		}
	}
	return l, minBits, maxBits, nil
}

func expected(id identity) string {
	if id.size == "" {
		return ", which takes none"
	}
	return " (it takes " + strings.Join(append([]string{id.size}, id.others...), ", ") + ")"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// bits reads a key size: a whole number of bits, at most 65536.
func bits(s, path string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > 1<<16 {
		return 0, problem(path, "%q is not a key size in bits (a whole number from 0 to 65536)", s)
	}
	return n, nil
}

// parseTime reads an xs:date or xs:dateTime, with or without a time
// zone (UTC when none): "2029-01-01", "2029-01-01+01:00",
// "2028-12-31T23:59:59.999+01:00".
func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02", "2006-01-02Z07:00", time.RFC3339Nano, "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
