package pades

import (
	"math"
	"testing"
)

// Every byte range, however absurd, is judged without a panic: the
// signature fails the format check, the document stays readable.
func TestCheckByteRange(t *testing.T) {
	t.Parallel()
	data := []byte("%PDF-1.7 <3000> tail")
	contents := []byte{0x30, 0x00}
	good := [4]int{0, 9, 15, 5}
	if msg := checkByteRange(good, data, contents); msg != "" {
		t.Fatalf("good range refused: %s", msg)
	}
	for _, r := range [][4]int{
		{1, 9, 15, 5},                // not from the start
		{0, 9, 9, 11},                // no gap
		{0, 9, 10, 10},               // a one-byte gap
		{0, 20, 20, 0},               // gap at the end of the file
		{0, 9, 15, 6},                // beyond the end
		{0, 9, math.MaxInt - 1, 10},  // overflow
		{0, -1, 15, 5},               // negative
		{0, 8, 15, 5},                // gap not a hex string
		{0, 9, 15, math.MaxInt},      // overflow in the last
		{0, 10, 14, 6},               // inside the hex string
		{0, len(data), len(data), 0}, // all of the file, no gap
	} {
		if msg := checkByteRange(r, data, contents); msg == "" {
			t.Errorf("%v accepted", r)
		}
	}
}
