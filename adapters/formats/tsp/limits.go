package tsp

// Bounds on attacker-controlled counts and sizes.
const (
	// MaxIntegerSize is the longest serial number or nonce read, in
	// bytes. RFC 3161 allows 160-bit serial numbers; nonces are usually
	// 64 bits.
	MaxIntegerSize = 64

	// MaxExtensions is the most TSTInfo extensions read.
	MaxExtensions = 32

	// MaxStatusStrings is the most PKIFreeText strings read from a
	// TimeStampResp status.
	MaxStatusStrings = 16
)
