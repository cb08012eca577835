package jades

import (
	"strings"
	"testing"
)

// TestParseJSON: the strict reader accepts RFC 8259 JSON and refuses,
// with the offset, what encoding/json would accept or what is not JSON.
func TestParseJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string // "" accepts; else the error
	}{
		{`{"a":[1,-2.5e+3,0,true,false,null,"x"],"b":{}}`, ""},
		{` "\u00e9\ud83d\ude00\n\"\\\/" `, ""},
		{`{"a":1,"a":2}`, `JSON: duplicate member name "a" at offset 7`},
		{`{"a":1,"\u0061":2}`, `JSON: duplicate member name "a" at offset 7`}, // the same name, escaped
		{`{"a":{"b":1},"c":{"b":2}}`, ""},                                     // the same name in two objects
		{`{"a":1}x`, "JSON: data after the JSON value at offset 7"},
		{`{"a":01}`, "JSON: expected , or } in an object at offset 6"},
		{`{"a":1.}`, "JSON: invalid number at offset 7"},
		{`{"a":-}`, "JSON: invalid number at offset 6"},
		{`"\ud800"`, "JSON: lone surrogate escape at offset 7"},
		{`"\x"`, `JSON: invalid escape \x at offset 3`},
		{"\"a\x01\"", "JSON: control character in a string at offset 2"},
		{`"abc`, "JSON: unterminated string at offset 4"},
		{`[1,2`, "JSON: unterminated array at offset 4"},
		{`{"a" 1}`, "JSON: expected : after a member name at offset 5"},
		{`{1:2}`, "JSON: expected a member name at offset 1"},
		{`tru`, "JSON: invalid literal at offset 0"},
		{``, "JSON: unexpected end of input at offset 0"},
		{strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), ""},
		{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), "JSON: nesting deeper than 32 at offset 32"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := parseJSON([]byte(tt.in))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("parseJSON(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestParseJSONValues: decoded strings, member order and raw text.
func TestParseJSONValues(t *testing.T) {
	t.Parallel()
	v, err := parseJSON([]byte(`{"b":"\u00e9x","a":[1, 2],"c":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.members) != 3 || v.members[0].name != "b" || v.members[1].name != "a" {
		t.Fatalf("members out of order: %+v", v.members)
	}
	if got := v.get("b").str; got != "éx" {
		t.Errorf("b = %q", got)
	}
	if got := string(v.get("a").raw); got != "[1, 2]" {
		t.Errorf("raw of a = %q", got)
	}
	if !v.get("c").boolean || v.get("z") != nil {
		t.Error("c or z wrong")
	}
}
