package jades

import (
	"encoding/base64"
	"encoding/binary"
	"io"
)

// The base64url alphabet (RFC 4648 section 5).
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// pairs maps 12 bits to their two base64url characters: one lookup
// encodes what encoding/base64 looks up twice.
var pairs = func() (t [4096]uint16) {
	for i := range t {
		t[i] = uint16(alphabet[i>>6])<<8 | uint16(alphabet[i&63])
	}
	return t
}()

// encodeB64URL writes the unpadded base64url encoding of src to dst,
// which must hold base64.RawURLEncoding.EncodedLen(len(src)) + 8 bytes
// (the fast loop stores 8 bytes for 6), and returns its length. It gives
// what base64.RawURLEncoding.Encode gives, about half again as fast: a
// sigD digest is over a detached file's encoding.
func encodeB64URL(dst, src []byte) int {
	di := 0
	for len(src) >= 8 {
		v := binary.BigEndian.Uint64(src)
		binary.BigEndian.PutUint16(dst[di:], pairs[v>>52])
		binary.BigEndian.PutUint16(dst[di+2:], pairs[(v>>40)&0xfff])
		binary.BigEndian.PutUint16(dst[di+4:], pairs[(v>>28)&0xfff])
		binary.BigEndian.PutUint16(dst[di+6:], pairs[(v>>16)&0xfff])
		di += 8
		src = src[6:]
	}
	for len(src) >= 3 {
		v := uint32(src[0])<<16 | uint32(src[1])<<8 | uint32(src[2])
		binary.BigEndian.PutUint16(dst[di:], pairs[v>>12])
		binary.BigEndian.PutUint16(dst[di+2:], pairs[v&0xfff])
		di += 4
		src = src[3:]
	}
	switch len(src) {
	case 2:
		v := uint32(src[0])<<8 | uint32(src[1])
		dst[di], dst[di+1], dst[di+2] = alphabet[v>>10], alphabet[(v>>4)&63], alphabet[(v<<2)&63]
		di += 3
	case 1:
		dst[di], dst[di+1] = alphabet[src[0]>>2], alphabet[(src[0]<<4)&63]
		di += 2
	}
	return di
}

// encodeChunk is how many octets writeEncoded encodes at a time: a
// multiple of 3, so that the chunks' encodings concatenate to the
// whole's, small enough to stay in cache between encoder and hash.
const encodeChunk = 3 << 14

// writeEncoded writes the base64url encoding of data to w. A large input
// is encoded a few chunks ahead of w on another goroutine: encoding and
// SHA-256 then run side by side on two cores, and a detached file is
// hashed in about the time of hashing its encoding alone.
func writeEncoded(w io.Writer, data []byte) {
	size := base64.RawURLEncoding.EncodedLen(encodeChunk) + 8
	if len(data) <= 4*encodeChunk {
		buf := make([]byte, base64.RawURLEncoding.EncodedLen(len(data))+8)
		w.Write(buf[:encodeB64URL(buf, data)])
		return
	}
	const depth = 4
	free := make(chan []byte, depth)
	full := make(chan []byte, depth)
	for range depth {
		free <- make([]byte, size)
	}
	go func() {
		defer close(full)
		for d := data; len(d) > 0; {
			n := min(len(d), encodeChunk)
			buf := <-free
			full <- buf[:encodeB64URL(buf, d[:n])]
			d = d[n:]
		}
	}()
	for buf := range full {
		w.Write(buf)
		free <- buf[:size]
	}
}
