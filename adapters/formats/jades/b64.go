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
// (the fast loops store 8 bytes for 6), and returns its length. It gives
// what base64.RawURLEncoding.Encode gives, about three times as fast
// (12 octets, two loads, four table lookups, two stores a turn): a sigD
// digest is over a detached file's encoding, and encoding it costs a
// third of hashing it instead of as much.
func encodeB64URL(dst, src []byte) int {
	di := 0
	for len(src) >= 14 && len(dst)-di >= 16 {
		v := binary.BigEndian.Uint64(src)
		w := binary.BigEndian.Uint64(src[6:])
		d := dst[di : di+16]
		binary.BigEndian.PutUint64(d, quad(v))
		binary.BigEndian.PutUint64(d[8:], quad(w))
		di += 16
		src = src[12:]
	}
	for len(src) >= 8 && len(dst)-di >= 8 {
		binary.BigEndian.PutUint64(dst[di:], quad(binary.BigEndian.Uint64(src)))
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

// quad is the eight characters of the top 48 bits of v.
func quad(v uint64) uint64 {
	return uint64(pairs[v>>52])<<48 | uint64(pairs[(v>>40)&0xfff])<<32 | uint64(pairs[(v>>28)&0xfff])<<16 | uint64(pairs[(v>>16)&0xfff])
}

// encodeChunk is how many octets writeEncoded encodes at a time: a
// multiple of 3, so that the chunks' encodings concatenate to the
// whole's, small enough for the chunk to stay in cache between the
// encoder and w.
const encodeChunk = 3 << 14

// writeEncoded writes the base64url encoding of data to w, a chunk at a
// time: the encoding is never held whole.
func writeEncoded(w io.Writer, data []byte) {
	buf := make([]byte, base64.RawURLEncoding.EncodedLen(min(len(data), encodeChunk))+8)
	for len(data) > 0 {
		n := min(len(data), encodeChunk)
		w.Write(buf[:encodeB64URL(buf, data[:n])])
		data = data[n:]
	}
}
