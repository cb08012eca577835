// Package wording holds what a message is worded from, beside its
// English text: a template ID and named parameters, so that a catalogue
// can word it in another language (docs/decisions/0038). It is a leaf of
// the domain: the readers' findings (domain/ades) and the verdicts
// (domain/verdict) both use it, and the ports, which the signer links,
// reach it through ades without linking the validation domain.
package wording

import (
	"strconv"
	"time"
)

// A ParamKind is how a message parameter's value reads, so that a
// catalogue can write it in a language's way: a date in German is not
// written as in English.
type ParamKind int

// The kinds of parameter value.
const (
	// Text is written as it is: a name, a subject, an identifier, a code,
	// a reader's technical detail.
	Text ParamKind = iota
	// Time is an instant, in RFC 3339 in UTC.
	Time
	// Date is a day, YYYY-MM-DD.
	Date
	// Number is a decimal integer.
	Number
)

// A Param is a named value in a message. Its name is the template's
// ({{.Name}}); its value is written per Kind.
type Param struct {
	Name  string
	Kind  ParamKind
	Value string
}

// TextParam is a Text parameter.
func TextParam(name, value string) Param { return Param{Name: name, Kind: Text, Value: value} }

// TimeParam is a Time parameter, in UTC.
func TimeParam(name string, t time.Time) Param {
	return Param{Name: name, Kind: Time, Value: t.UTC().Format(time.RFC3339)}
}

// DateParam is a Date parameter: the day of t in UTC.
func DateParam(name string, t time.Time) Param {
	return Param{Name: name, Kind: Date, Value: t.UTC().Format(time.DateOnly)}
}

// NumberParam is a Number parameter.
func NumberParam(name string, n int) Param {
	return Param{Name: name, Kind: Number, Value: strconv.Itoa(n)}
}

// QuotedParam is a Text parameter that the English sentence quotes with
// %q: its value is escaped as %q escapes it, without the quotation marks,
// which each language writes in its own way ("", „“, « », «»).
func QuotedParam(name, value string) Param {
	q := strconv.Quote(value)
	return TextParam(name, q[1:len(q)-1])
}

// ID is the template ID of code's sentence variant ("" for the code's
// own sentence).
func ID(code, variant string) string {
	if variant == "" {
		return code
	}
	return code + "." + variant
}
