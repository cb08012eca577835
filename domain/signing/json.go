package signing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Errors of Members.
var (
	// ErrNotObject is data that is not exactly one JSON object: not JSON,
	// another kind of value, or anything but white space after it.
	ErrNotObject = errors.New("signing: not exactly one JSON object")
	// ErrDuplicateMember is an object that gives a member name twice.
	ErrDuplicateMember = errors.New("signing: a member name given twice")
)

// Members splits data, one JSON object, into its members by name, for
// the caller to read each exactly as it is named. It is the one reader of
// the JSON that signing authenticates: the sign request's body and the
// proxy's claims.
//
// It is stricter than encoding/json, which matches names to fields
// regardless of case and keeps the last of two members of one name: a
// proxy, an audit tool or the proxy's own signer reading the same bytes by
// the JSON standard might see another request than the one checked. So a
// name given twice is an error wrapping [ErrDuplicateMember] (RFC 8259
// §4 leaves it open; RFC 7519 §4 allows refusing it), and anything after
// the object is [ErrNotObject]. Names are compared after JSON unescaping.
func Members(data []byte) (map[string]json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, ErrNotObject
	}
	m := map[string]json.RawMessage{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrNotObject, err)
		}
		name, _ := t.(string) // a member name is always a string
		if _, dup := m[name]; dup {
			return nil, fmt.Errorf("%w: %q", ErrDuplicateMember, name)
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrNotObject, err)
		}
		m[name] = v
	}
	if _, err := d.Token(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotObject, err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the object", ErrNotObject)
	}
	return m, nil
}

// String reads a JSON string value exactly: null, a number or any other
// kind of value is not one (encoding/json would read null as ""), nor is
// a string that is not UTF-8 (encoding/json would replace the bytes).
func String(v json.RawMessage) (string, bool) {
	if len(v) == 0 || v[0] != '"' || !utf8.Valid(v) {
		return "", false
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}
