package jades

import (
	"errors"
	"fmt"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/internal/validationdata"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/adapters/formats/tsp"
	"github.com/svc-dss/dss/domain/ades"
)

// component is one etsiU entry: one unsigned property (TS 119 182-1
// 5.3), in the base64url-encoded form (a string) or in clear JSON.
type component struct {
	name  string
	val   *value
	enc   string // the base64url string as it appears; "" in clear form
	clear bool
}

// readComponents reads the etsiU array of the unprotected header hdr.
// Malformed entries (invalid base64url, JSON that is not strict, not an
// object of one member) make the document unreadable.
func readComponents(hdr *value) ([]component, []ades.Problem, error) {
	et := hdr.get("etsiU")
	if et == nil {
		return nil, nil, nil
	}
	if et.kind != kindArray {
		return nil, nil, fmt.Errorf("etsiU is %v, not an array", et.kind)
	}
	if len(et.elems) > MaxComponents {
		return nil, nil, fmt.Errorf("more than %d etsiU components", MaxComponents)
	}
	var out []component
	var problems []ades.Problem
	clear, encoded := 0, 0
	for i, e := range et.elems {
		c := component{}
		obj := e
		switch e.kind {
		case kindString:
			encoded++
			b, err := decodeB64URL(fmt.Sprintf("etsiU[%d]", i), e.str)
			if err != nil {
				return nil, nil, err
			}
			if obj, err = parseJSON(b); err != nil {
				return nil, nil, fmt.Errorf("etsiU[%d]: %w", i, err)
			}
			c.enc = e.str
		case kindObject:
			clear++
			c.clear = true
		default:
			return nil, nil, fmt.Errorf("etsiU[%d] is %v, neither a base64url string nor an object", i, e.kind)
		}
		if obj.kind != kindObject || len(obj.members) != 1 {
			return nil, nil, fmt.Errorf("etsiU[%d] is not an object of one property (TS 119 182-1 5.3)", i)
		}
		c.name, c.val = obj.members[0].name, obj.members[0].val
		out = append(out, c)
	}
	if clear > 0 && encoded > 0 {
		problems = append(problems, ades.Say(CodeMixedComponentForms, "mixed", "etsiU mixes base64url-encoded and clear JSON components (TS 119 182-1 5.3 asks for one form)"))
	}
	return out, problems, nil
}

// validationData is what a signature carries for validation
// (validationdata.Set), with the JAdES reader's ways of reading it.
type validationData struct{ *validationdata.Set }

func newValidationData() *validationData {
	return &validationData{validationdata.New(MaxCertificates, MaxRevocationValues)}
}

// vals returns the DER of each {"val": base64} of arr, with the name of
// the member that holds it ({"x509Cert": {"val": ...}} gives x509Cert),
// reporting malformed entries.
func (v *validationData) vals(arr *value, what string, wrapped bool) [][]byte {
	if arr == nil {
		return nil
	}
	if arr.kind != kindArray {
		v.Problem(CodeMalformedProperty, "%s is %v, not an array", what, arr.kind)
		return nil
	}
	var out [][]byte
	for i, e := range arr.elems {
		if i >= MaxCertificates+MaxRevocationValues {
			v.Over = true
			break
		}
		if wrapped {
			// xVals: {"x509Cert": {"val": ...}} or {"otherCert": ...}.
			if x := e.get("x509Cert"); x != nil {
				e = x
			} else {
				continue
			}
		}
		der, err := decodeB64(fmt.Sprintf("%s[%d]", what, i), strOf(e.get("val")))
		if err != nil || len(der) == 0 {
			v.Problem(CodeMalformedProperty, "%s[%d]: no base64 val", what, i)
			continue
		}
		out = append(out, der)
	}
	return out
}

// addXVals reads xVals (TS 119 182-1 5.3.5.1); it returns how many
// certificates it held.
func (v *validationData) addXVals(x *value, what string) int {
	ders := v.vals(x, what, true)
	for i, der := range ders {
		c, err := cert.Parse(der)
		if err != nil {
			v.Problem(CodeBadCertificate, "%s[%d] does not parse: %v", what, i, err)
			continue
		}
		v.AddCertificate(c)
	}
	return len(ders)
}

// addRVals reads rVals (5.3.5.2): crlVals and ocspVals. It returns how
// many values it held.
func (v *validationData) addRVals(r *value, what string) int {
	if r == nil {
		return 0
	}
	if r.kind != kindObject {
		v.Problem(CodeMalformedProperty, "%s is %v, not an object", what, r.kind)
		return 0
	}
	n := 0
	for _, der := range v.vals(r.get("crlVals"), what+".crlVals", false) {
		v.AddCRL(der)
		n++
	}
	for _, der := range v.vals(r.get("ocspVals"), what+".ocspVals", false) {
		v.AddOCSP(ocsp.Full(der))
		n++
	}
	return n
}

// tokens reads a time-stamp property ({"tstTokens": [{"val": ...}],
// "canonAlg": ...}): its tokens, parsed, and its canonAlg.
func tokens(v *value, name string, problems *[]ades.Problem) ([]*tsp.Token, string) {
	arr := v.get("tstTokens")
	if arr == nil || arr.kind != kindArray || len(arr.elems) == 0 {
		*problems = append(*problems, ades.Problem{Code: CodeTimestampUnreadable, Message: name + ": no tstTokens array"})
		return nil, ""
	}
	var out []*tsp.Token
	for i, e := range arr.elems {
		if enc := strOf(e.get("encoding")); enc != "" && enc != "http://uri.etsi.org/19182/DER" {
			*problems = append(*problems, ades.Problem{Code: CodeTimestampUnreadable, Message: fmt.Sprintf("%s[%d]: encoding %q is not read", name, i, enc)})
			continue
		}
		der, err := decodeB64(fmt.Sprintf("%s[%d]", name, i), strOf(e.get("val")))
		if err != nil {
			*problems = append(*problems, ades.Problem{Code: CodeTimestampUnreadable, Message: err.Error()})
			continue
		}
		tok, err := tsp.Parse(der)
		if err != nil {
			*problems = append(*problems, ades.Problem{Code: CodeTimestampUnreadable, Message: fmt.Sprintf("%s[%d]: %v", name, i, err)})
			continue
		}
		out = append(out, tok)
	}
	return out, strOf(v.get("canonAlg"))
}

// errNoContent: an input of the imprint is not available (a detached
// data object not supplied). errNotComputed: the input uses what this
// reader does not compute.
var (
	errNoContent   = fmt.Errorf("jades: %w", cades.ErrNoContent)
	errNotComputed = errors.New("jades: time-stamp input not computed")
)

// imprintCodes name the reasons of this reader's time-stamp imprints
// (cades.TimestampEvidenceOf).
var imprintCodes = cades.ImprintCodes{
	NoContent: CodeNoContent, NotComputed: CodeImprintNotComputed,
	Mismatch: CodeImprintMismatch, UnsupportedAlgorithm: CodeUnsupportedAlgorithm,
}
