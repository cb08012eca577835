package cms

import (
	"bytes"
	"testing"
)

// agrees checks isDER against what it stands for, the re-encoding equal
// to the input, on e and every element inside it.
func agrees(t *testing.T, e element) {
	t.Helper()
	der, err := e.der()
	want := err == nil && bytes.Equal(der, e.raw)
	if got := e.isDER(); got != want {
		t.Fatalf("isDER(% x) = %v, re-encoding equal = %v (err %v)", e.raw, got, want, err)
	}
	if !e.constructed {
		return
	}
	for rest := e.content; len(rest) > 0; {
		var k element
		if k, rest, err = readElement(rest, e.depth+1); err != nil {
			return
		}
		agrees(t, k)
	}
}

func TestIsDER(t *testing.T) {
	t.Parallel()
	long := bytes.Repeat([]byte{0x41}, 200)
	tests := []struct {
		name string
		in   []byte
		der  bool
	}{
		{"short primitive", []byte{0x04, 0x02, 0xaa, 0xbb}, true},
		{"long form length", append([]byte{0x04, 0x81, 200}, long...), true},
		{"long form where short would do", []byte{0x04, 0x81, 0x02, 0xaa, 0xbb}, false},
		{"length with a leading zero octet", append([]byte{0x04, 0x82, 0x00, 200}, long...), false},
		{"nested sequence", []byte{0x30, 0x06, 0x30, 0x04, 0x02, 0x02, 0x01, 0x00}, true},
		{"indefinite length", []byte{0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00}, false},
		{"constructed OCTET STRING", []byte{0x24, 0x06, 0x04, 0x01, 0xaa, 0x04, 0x01, 0xbb}, false},
		{"BER deep inside DER", []byte{0x30, 0x07, 0x30, 0x05, 0x04, 0x81, 0x02, 0xaa, 0xbb}, false},
		{"high tag number", []byte{0x9f, 0x20, 0x01, 0x00}, true},
		{"high tag number with a padding octet", []byte{0x9f, 0x80, 0x20, 0x01, 0x00}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, rest, err := readElement(tt.in, 0)
			if err != nil || len(rest) != 0 {
				t.Fatalf("readElement: %v, %d bytes left", err, len(rest))
			}
			if e.isDER() != tt.der {
				t.Errorf("isDER = %v, want %v", e.isDER(), tt.der)
			}
			agrees(t, e)
		})
	}
}

// FuzzIsDER: on any input, isDER says exactly whether der would return
// the input unchanged.
func FuzzIsDER(f *testing.F) {
	f.Add([]byte{0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00})
	f.Add([]byte{0x24, 0x06, 0x04, 0x01, 0xaa, 0x04, 0x01, 0xbb})
	f.Add([]byte{0x30, 0x06, 0x30, 0x04, 0x02, 0x02, 0x01, 0x00})
	f.Fuzz(func(t *testing.T, in []byte) {
		e, _, err := readElement(in, 0)
		if err != nil {
			return
		}
		agrees(t, e)
	})
}
