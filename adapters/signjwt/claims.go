package signjwt

import (
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/svc-dss/dss/domain/signing"
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
	raw, err := signing.Members(payload)
	if err != nil {
		return claims{}, &RefusalError{Class: ErrUnauthenticated, Reason: "the claims are not one JSON object with distinct member names", Detail: err.Error()}
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
			if *f.s, ok = signing.String(v); !ok {
				return claims{}, unauthenticated("claim " + f.name + " is not a string")
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
				return claims{}, unauthenticated("claim " + f.name + " is not a NumericDate")
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
