package signjwt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"
)

// claims are the claims of the profile. Times absent from the token are
// zero.
type claims struct {
	iss, sub, jti  string
	aud            jwt.Audience
	exp, iat, nbf  time.Time
	tenant, module string
	bodySHA256     string
}

// maxNumericDate bounds a NumericDate (year 5138): far beyond any real
// token, and far from overflowing int64 or time.Duration arithmetic.
const maxNumericDate = 1e11

// readClaims reads the claims set of payload. Names match exactly (not
// case-insensitively, as encoding/json would match struct fields), and a
// name given twice is refused: RFC 7519 §4 allows taking the last one,
// but two parsers that pick differently are how confusion attacks start.
func readClaims(payload []byte) (claims, error) {
	raw, err := members(payload)
	if err != nil {
		return claims{}, unauthenticated("the claims do not read: %v", err)
	}
	var c claims
	for _, f := range []struct {
		name string
		s    *string
	}{
		{"iss", &c.iss}, {"sub", &c.sub}, {"jti", &c.jti},
		{ClaimTenant, &c.tenant}, {ClaimModule, &c.module}, {ClaimBodySHA256, &c.bodySHA256},
	} {
		if v, ok := raw[f.name]; ok {
			if err := json.Unmarshal(v, f.s); err != nil || bytes.Equal(v, []byte("null")) {
				return claims{}, unauthenticated("claim %s is not a string", f.name)
			}
		}
	}
	for _, f := range []struct {
		name string
		t    *time.Time
	}{
		{"exp", &c.exp}, {"iat", &c.iat}, {"nbf", &c.nbf},
	} {
		if v, ok := raw[f.name]; ok {
			t, ok := numericDate(v)
			if !ok {
				return claims{}, unauthenticated("claim %s is not a NumericDate", f.name)
			}
			*f.t = t
		}
	}
	if v, ok := raw["aud"]; ok {
		if err := c.aud.UnmarshalJSON(v); err != nil {
			return claims{}, unauthenticated("claim aud is neither a string nor an array of strings")
		}
	}
	return c, nil
}

// members splits a JSON object into its members, refusing a name given
// twice.
func members(payload []byte) (map[string]json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(payload))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, errNotObject
	}
	m := map[string]json.RawMessage{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		name, _ := t.(string) // a member name is always a string
		if _, dup := m[name]; dup {
			return nil, fmt.Errorf("claim %q given twice", name)
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		m[name] = v
	}
	if _, err := d.Token(); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errNotObject // data after the object
	}
	return m, nil
}

var errNotObject = errors.New("not a JSON object")

// numericDate reads a NumericDate (RFC 7519 §2): a JSON number of seconds
// since the epoch, possibly with a fraction, which is dropped.
func numericDate(v json.RawMessage) (time.Time, bool) {
	// A JSON string fails here too: its quotes are not part of a number.
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > maxNumericDate {
		return time.Time{}, false
	}
	return time.Unix(int64(f), 0), true
}
