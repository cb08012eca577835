package pdf

import (
	"errors"
	"slices"
	"testing"
)

// The node budget is shared across walks: it stops a walk with ErrLimit,
// which is not a broken tree, and a negative budget is no limit.
func TestPagesWithinBudget(t *testing.T) {
	t.Parallel()
	f, err := Open(handmade(t, threePages, nil))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		budget, left int
		pages        int
		limited      bool
	}{
		{-1, -1, 3, false},
		{10, 6, 3, false}, // the root, three pages
		{4, 0, 3, false},
		{3, 0, 0, true},
	}
	for _, tt := range tests {
		n := tt.budget
		pages, err := f.PagesWithin(10, &n)
		if errors.Is(err, ErrLimit) != tt.limited || (err != nil && !tt.limited) {
			t.Errorf("budget %d: %v", tt.budget, err)
		}
		if err == nil && (len(pages) != tt.pages || n != tt.left) {
			t.Errorf("budget %d: %d pages, %d left; want %d, %d", tt.budget, len(pages), n, tt.pages, tt.left)
		}
	}
}

// End is where the last revision the chain reaches ends, whatever
// follows it: an object, or even an %%EOF, that no section lists.
func TestEnd(t *testing.T) {
	t.Parallel()
	data := handmade(t, threePages, nil)
	tests := []struct {
		name     string
		appended string
	}{
		{"nothing", ""},
		{"white space", " \x00\x00\n"},
		{"an object", "7 0 obj\n<< >>\nendobj\n"},
		{"an object and an %%EOF", "7 0 obj\n<< >>\nendobj\n%%EOF\n"},
	}
	for _, tt := range tests {
		f, err := Open(append(slices.Clip(data), tt.appended...))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.End(); got != len(data) {
			t.Errorf("%s: End %d, want %d", tt.name, got, len(data))
		}
	}
}
