package validation

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// trustSnapshot names the trust data of snap and the private anchors
// configured besides it (WithPrivateAnchors) by their digests: each
// list's copy in use with its sequence number, each private anchor's
// certificate, and the SHA-256 over them all (verdict.TrustSnapshot says
// how), so that a verdict can be reproduced from the same lists.
// A list without a copy in use anchors nothing and is left out.
func trustSnapshot(snap *trust.Snapshot, extra []*x509.Certificate) *verdict.TrustSnapshot {
	out := &verdict.TrustSnapshot{Lists: []verdict.SnapshotList{}, PrivateAnchors: []string{}}
	var text strings.Builder
	if snap != nil {
		for _, l := range snap.Lists {
			if l.List == nil {
				continue
			}
			kind := "TL"
			if l.Kind == trust.LOTL {
				kind = "LOTL"
			}
			sl := verdict.SnapshotList{Territory: l.Territory, Kind: kind, SequenceNumber: l.List.SequenceNumber, SHA256: hex.EncodeToString(l.SHA256[:])}
			out.Lists = append(out.Lists, sl)
			fmt.Fprintf(&text, "list %s %s %d %s\n", sl.Kind, sl.Territory, sl.SequenceNumber, sl.SHA256)
		}
		if snap.PrivateCA.Enabled {
			for _, a := range snap.PrivateCA.Anchors {
				out.PrivateAnchors = append(out.PrivateAnchors, sha256Hex(a.Certificate))
			}
		}
	}
	for _, c := range extra {
		out.PrivateAnchors = append(out.PrivateAnchors, sha256Hex(c.Raw))
	}
	slices.Sort(out.PrivateAnchors)
	out.PrivateAnchors = slices.Compact(out.PrivateAnchors)
	for _, a := range out.PrivateAnchors {
		fmt.Fprintf(&text, "anchor %s\n", a)
	}
	out.SHA256 = sha256Hex([]byte(text.String()))
	return out
}

// sha256Hex is the lower-case hex SHA-256 of b.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
