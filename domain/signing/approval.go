package signing

import (
	"crypto"
	"encoding/binary"
	"time"
)

// approvalContext names the approval format; a change makes a new one.
const approvalContext = "svc-dss/ska-approval/v1"

// ApprovalPayload is what a Smart Key Attributes approval signs: the
// operation ("sign"), the signing key (label and ID), the mechanism, the
// hash, the number of signatures and exactly the bytes handed to the
// token for each, in order, when it was issued and a single-use nonce.
// Each field is length-prefixed, so no two operations share a payload. An
// approval is thus bound to one key, one list of inputs and one moment,
// and is used once (docs/decisions/0023).
func ApprovalPayload(keyLabel string, keyID []byte, mechanism string, hash crypto.Hash, data [][]byte, issuedAt time.Time, nonce []byte) []byte {
	var b []byte
	field := func(v []byte) {
		b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
		b = append(b, v...)
	}
	field([]byte(approvalContext))
	field([]byte("sign"))
	field([]byte(keyLabel))
	field(keyID)
	field([]byte(mechanism))
	field([]byte(hash.String()))
	field(binary.BigEndian.AppendUint32(nil, uint32(len(data))))
	for _, d := range data {
		field(d)
	}
	field(binary.BigEndian.AppendUint64(nil, uint64(issuedAt.UTC().UnixNano())))
	field(nonce)
	return b
}
