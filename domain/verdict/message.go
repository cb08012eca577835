package verdict

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

// Say returns the message of code in the sentence variant names ("" for
// the code's own sentence), whose English text is english, with the
// parameters that text was made of. A catalogue renders it in another
// language from its template ID (docs/decisions/0038): the English
// stays in the domain, which must not depend on a catalogue, and a test
// of the catalogue holds both to the same words.
func Say(code, variant, english string, params ...Param) Message {
	id := code
	if variant != "" {
		id = code + "." + variant
	}
	return Message{Code: code, Message: english, ID: id, Params: params}
}

// TemplateID is the catalogue's ID of m's template: m.ID, or the code for
// a message made without Say.
func (m Message) TemplateID() string {
	if m.ID == "" {
		return m.Code
	}
	return m.ID
}

// QuotedParam is a Text parameter that the English sentence quotes with
// %q: its value is escaped as %q escapes it, without the quotation marks,
// which each language writes in its own way ("", „“, « », «»).
func QuotedParam(name, value string) Param {
	q := strconv.Quote(value)
	return TextParam(name, q[1:len(q)-1])
}
