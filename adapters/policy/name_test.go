package policy

import (
	"strings"
	"testing"
)

// TestValidName: the policy name rule, 1 to 64 ASCII letters, digits,
// '.', '_' or '-', starting with a letter or digit, at each of its edges.
func TestValidName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"", false},
		{"a", true},
		{"Z", true},
		{"0", true},
		{"9default", true},
		{"eu.qes_2026-v1", true},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
		{".a", false},
		{"_a", false},
		{"-a", false},
		{"a b", false},
		{"a/b", false},
		{"a\n", false},
		{"é", false},
		{"aé", false},
		{"a@", false},
		{"a:", false},
		{"a[", false},
		{"a`", false},
		{"a{", false},
	} {
		if got := validName(tc.name); got != tc.want {
			t.Errorf("validName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
