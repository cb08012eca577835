package verdict

import (
	"time"

	"github.com/svc-dss/dss/domain/wording"
)

// A ParamKind is how a message parameter's value reads (wording).
type ParamKind = wording.ParamKind

// The kinds of parameter value (wording).
const (
	Text   = wording.Text
	Time   = wording.Time
	Date   = wording.Date
	Number = wording.Number
)

// A Param is a named value in a message (wording).
type Param = wording.Param

// TextParam is a Text parameter.
func TextParam(name, value string) Param { return wording.TextParam(name, value) }

// TimeParam is a Time parameter, in UTC.
func TimeParam(name string, t time.Time) Param { return wording.TimeParam(name, t) }

// DateParam is a Date parameter: the day of t in UTC.
func DateParam(name string, t time.Time) Param { return wording.DateParam(name, t) }

// NumberParam is a Number parameter.
func NumberParam(name string, n int) Param { return wording.NumberParam(name, n) }

// QuotedParam is a Text parameter that the English sentence quotes with
// %q (wording.QuotedParam).
func QuotedParam(name, value string) Param { return wording.QuotedParam(name, value) }

// Say returns the message of code in the sentence variant names ("" for
// the code's own sentence), whose English text is english, with the
// parameters that text was made of. A catalogue renders it in another
// language from its template ID (docs/decisions/0038): the English
// stays in the domain, which must not depend on a catalogue, and a test
// of the catalogue holds both to the same words.
func Say(code, variant, english string, params ...Param) Message {
	return Message{Code: code, Message: english, ID: wording.ID(code, variant), Params: params}
}

// TemplateID is the catalogue's ID of m's template: m.ID, or the code for
// a message made without Say.
func (m Message) TemplateID() string {
	if m.ID == "" {
		return m.Code
	}
	return m.ID
}
