package verdict

// TrustSnapshot names the exact trust data a verdict was judged
// against, so that it can be reproduced later from the same lists and
// anchors (docs/validate-api.md, trustData.snapshot).
type TrustSnapshot struct {
	// SHA256 is the lower-case hex SHA-256 of the snapshot's canonical
	// text: for each list in Lists, in order, the line
	// "list <kind> <territory> <sequenceNumber> <sha256>\n", then for
	// each private anchor in PrivateAnchors, in order, the line
	// "anchor <sha256>\n".
	SHA256 string `json:"sha256"`
	// Lists are the lists whose copies were in use, in the trust
	// store's order.
	Lists []SnapshotList `json:"lists"`
	// PrivateAnchors are the lower-case hex SHA-256 digests of the
	// private anchors' certificates (DER), sorted.
	PrivateAnchors []string `json:"privateAnchors"`
}

// SnapshotList is one list of a snapshot: the copy in use.
type SnapshotList struct {
	Territory      string `json:"territory"`
	Kind           string `json:"kind"` // LOTL or TL
	SequenceNumber int    `json:"sequenceNumber"`
	// SHA256 is the lower-case hex SHA-256 of the list's bytes, as
	// published and cached.
	SHA256 string `json:"sha256"`
}
