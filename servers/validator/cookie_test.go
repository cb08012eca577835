package main

import (
	"strings"
	"testing"
)

// TestCookieShapes: a cookie value is looked at only when it has the
// shape the service gives it; anything else is no cookie at all.
func TestCookieShapes(t *testing.T) {
	t.Parallel()
	session, login := newCookies("https://validator.example")
	id := strings.Repeat("aZ9-_", 8) + "abc" // 43 characters
	tests := []struct {
		name   string
		cookie uiCookie
		value  string
		want   bool
	}{
		{"session ID", session, id, true},
		{"session ID one short", session, id[1:], false},
		{"session ID one long", session, id + "a", false},
		{"session ID with padding", session, id[1:] + "=", false},
		{"session ID with a plus", session, "+" + id[1:], false},
		{"session ID with a non-ASCII letter", session, "é" + id[2:], false},
		{"empty session ID", session, "", false},
		{"sealed login", login, "abc-_XYZ019", true},
		{"sealed login at the bound", login, strings.Repeat("a", maxSealedLoginLen), true},
		{"sealed login over the bound", login, strings.Repeat("a", maxSealedLoginLen+1), false},
		{"empty sealed login", login, "", false},
		{"sealed login with a slash", login, "abc/def", false},
		{"sealed login with a space", login, "abc def", false},
		{"sealed login with a NUL", login, "abc\x00def", false},
	}
	for _, tt := range tests {
		if got := tt.cookie.valid(tt.value); got != tt.want {
			t.Errorf("%s: valid(%q) = %t, want %t", tt.name, tt.value, got, tt.want)
		}
	}
}
