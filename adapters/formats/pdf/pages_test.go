package pdf

import (
	"errors"
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
