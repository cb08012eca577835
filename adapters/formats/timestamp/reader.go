package timestamp

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/adapters/formats/tsp"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/ports"
)

// Reader reads bare RFC 3161 time-stamps. It implements
// ports.ContentsReader. The zero value is ready to use.
type Reader struct{}

var _ ports.ContentsReader = (*Reader)(nil)

// NewReader returns a Reader.
func NewReader() *Reader { return &Reader{} }

// Detect reports whether data is a time-stamp token (a ContentInfo whose
// SignedData encapsulates a TSTInfo, DER or BER) or a TimeStampResp (a
// PKIStatusInfo, then such a token or nothing), from its first bytes.
// Read returns an error wrapping ports.ErrNotThisFormat for exactly the
// data Detect does not claim.
func Detect(data []byte) bool { return isToken(data) || isResponse(data) }

func isToken(data []byte) bool {
	ct, ok := cms.EncapsulatedContentType(data)
	return ok && ct.Equal(cms.OIDTSTInfo)
}

// isResponse reports whether data starts like a DER TimeStampResp: a
// SEQUENCE whose first element is a PKIStatusInfo (a SEQUENCE starting
// with a PKIStatus INTEGER of RFC 3161's values), followed by a token or
// by nothing.
func isResponse(data []byte) bool {
	in := cryptobyte.String(data)
	var resp, status, statusInfo cryptobyte.String
	var code int64
	if !in.ReadASN1(&resp, cbasn1.SEQUENCE) || !resp.ReadASN1(&statusInfo, cbasn1.SEQUENCE) {
		return false
	}
	status = statusInfo
	if !status.ReadASN1Int64WithTag(&code, cbasn1.INTEGER) || code < tsp.StatusGranted || code > tsp.StatusRevocationNotification {
		return false
	}
	return len(resp) == 0 || isToken(resp)
}

// Read returns no signature: a time-stamp holds none (ReadContents).
func (r *Reader) Read(ctx context.Context, doc ports.Document) ([]ades.Signature, error) {
	c, err := r.ReadContents(ctx, doc)
	if err != nil {
		return nil, err
	}
	return c.Signatures, nil
}

// errNoData is the imprint comparison of a time-stamp uploaded without
// data: not made.
var errNoData = errors.New("timestamp: no detached data given")

// ReadContents reads the time-stamp doc.Data, a token or a response, and
// returns it as one time-stamp entry named doc.Name, its imprint checked
// against doc.Detached. An error wraps ports.ErrNotThisFormat for data
// Detect does not claim, ports.ErrUnreadable for a token or response
// that cannot be read, a rejected response (no token) or more than
// MaxDetached parts.
func (r *Reader) ReadContents(ctx context.Context, doc ports.Document) (ades.Contents, error) {
	if !Detect(doc.Data) {
		return ades.Contents{}, fmt.Errorf("%w: timestamp: not an RFC 3161 time-stamp token or response", ports.ErrNotThisFormat)
	}
	if len(doc.Detached) > MaxDetached {
		return ades.Contents{}, fmt.Errorf("%w: timestamp: more than %d detached parts", ports.ErrUnreadable, MaxDetached)
	}
	tok, err := parse(doc.Data)
	if err != nil {
		return ades.Contents{}, fmt.Errorf("%w: timestamp: %s: %w", ports.ErrUnreadable, doc.Name, err)
	}
	// The data is the part whose digest the imprint is; when none is, the
	// first part, which then does not match.
	covered := -1
	for i, d := range doc.Detached {
		if err := ctx.Err(); err != nil {
			return ades.Contents{}, err
		}
		if tok.CheckImprint(d.Data) == nil {
			covered = i
			break
		}
	}
	if covered < 0 && len(doc.Detached) > 0 {
		covered = 0
	}
	imprint := errNoData
	if covered >= 0 {
		imprint = tok.CheckImprint(doc.Detached[covered].Data)
	}
	e := ades.TimestampEntry{
		ID:        ades.TimestampID(tok.Raw),
		Name:      doc.Name,
		Timestamp: cades.TimestampEvidence(ades.ContentTimestamp, tok, imprint, doc.Certificates),
	}
	if covered >= 0 {
		name := doc.Detached[covered].Name
		if name == "" {
			name = fmt.Sprintf("detached part %d", covered+1)
		}
		d := ades.DataObject{Name: name, Found: true, Part: covered + 1, Intact: e.Timestamp.Imprint.Valid,
			DigestAlgorithm: e.Timestamp.Imprint.Algorithm, Digest: tok.Info.MessageImprint.HashedMessage}
		if !e.Timestamp.Imprint.Done {
			d.Unchecked = e.Timestamp.Imprint.Reason
		}
		e.DataObjects = []ades.DataObject{d}
	}
	return ades.Contents{Signatures: []ades.Signature{}, Timestamps: []ades.TimestampEntry{e}}, nil
}

// parse reads a token, or the token of a granted response.
func parse(data []byte) (*tsp.Token, error) {
	if isToken(data) {
		return tsp.Parse(data)
	}
	tok, _, err := tsp.ParseResponse(data)
	return tok, err
}
