package pades

import (
	"bytes"
	"crypto"
	_ "crypto/sha3"
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

// Shared prefix hashing gives the digests plain hashing gives, whatever
// the order the ranges come in, and hashes a shared prefix once.
func TestPrefixes(t *testing.T) {
	t.Parallel()
	data := make([]byte, 1<<16)
	for i := range data {
		data[i] = byte(i * 7)
	}
	ranges := [][4]int{{0, 1000, 1100, 500}, {0, 3000, 3100, 900}, {0, 3000, 3100, 100}, {0, 20000, 20100, 45436}, {0, 50, 60, 10}}
	for _, h := range []crypto.Hash{crypto.SHA1, crypto.SHA256, crypto.SHA384, crypto.SHA512, crypto.SHA3_256} {
		for _, order := range [][]int{{0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}, {2, 0, 4, 3, 1}} {
			p := &prefixes{data: data}
			for _, i := range order {
				r := ranges[i]
				got, err := p.digest(r, h)
				if err != nil {
					t.Fatal(err)
				}
				want := h.New()
				want.Write(data[r[0] : r[0]+r[1]])
				want.Write(data[r[2] : r[2]+r[3]])
				if !bytes.Equal(got, want.Sum(nil)) {
					t.Fatalf("%v, order %v, range %v: digest differs", h, order, r)
				}
			}
			if n := len(p.saved[h]); n != 4 { // one state per distinct first range
				t.Fatalf("%v: %d states kept", h, n)
			}
		}
	}
	if _, err := (&prefixes{data: data}).digest(ranges[0], crypto.MD4); err == nil {
		t.Fatal("an unavailable hash digested")
	}
}
