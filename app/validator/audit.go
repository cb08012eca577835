package validator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/ports"
)

// Validate validates doc for the caller p, as POST /api/validate does,
// and logs one audit record of the call (see audit). The result and the
// error are those of validation.Validator.Validate.
func (v *Validator) Validate(ctx context.Context, p Principal, doc validation.Document) (*validation.Result, error) {
	began := time.Now()
	if doc.Policy == nil {
		pol, err := v.tenantPolicy(ctx, p)
		if err != nil {
			v.audit(ctx, p, doc, nil, time.Since(began), err)
			return nil, err
		}
		doc.Policy = &pol
	}
	res, err := v.validation.Validate(ctx, doc)
	v.audit(ctx, p, doc, res, time.Since(began), err)
	return res, err
}

// audit logs one validation call, as the signer logs each sign-ska call:
// who (tenant), what (the document's SHA-256 and size, the formats of its
// signatures), the outcome with every signature's indication, and its
// duration. The request id comes with ctx. Never the document, its name
// (a file name may name a person) nor anything the signatures claim: an
// operator can find the call, and the tenant its document, by the digest.
func (v *Validator) audit(ctx context.Context, p Principal, doc validation.Document, res *validation.Result, took time.Duration, err error) {
	attrs := []slog.Attr{
		slog.String("outcome", auditOutcome(err)),
		slog.String("tenant", p.Tenant),
		slog.Float64("duration_ms", float64(took.Microseconds())/1000),
		slog.Int("document_bytes", len(doc.Data)),
	}
	if res != nil {
		sum := res.Summary
		var formats, indications []string
		for _, r := range sum.Signatures {
			if !slices.Contains(formats, r.SignatureFormat) {
				formats = append(formats, r.SignatureFormat)
			}
			indications = append(indications, indication(string(r.Indication), r.SubIndication))
		}
		for _, e := range sum.Timestamps {
			if !slices.Contains(formats, "TST") {
				formats = append(formats, "TST")
			}
			indications = append(indications, indication(string(e.Indication), e.SubIndication))
		}
		attrs = append(attrs, slog.String("document_sha256", sum.DocumentSHA256),
			slog.Any("formats", nonNil(formats)), slog.Any("indications", nonNil(indications)), slog.Bool("valid", sum.Valid))
	} else {
		// An unreadable document has no summary; its digest still tells
		// the tenant which upload was refused.
		sum := sha256.Sum256(doc.Data)
		attrs = append(attrs, slog.String("document_sha256", hex.EncodeToString(sum[:])))
	}
	if r := auditReason(err); r != "" {
		attrs = append(attrs, slog.String("reason", r))
	}
	v.logger.LogAttrs(ctx, slog.LevelInfo, "validate", attrs...)
}

// indication writes an indication with its sub-indication, if any, as
// INDETERMINATE/TRY_LATER.
func indication[S ~string](i string, sub *S) string {
	if sub == nil || *sub == "" {
		return i
	}
	return i + "/" + string(*sub)
}

// nonNil writes an empty list as [] rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// auditReason is why an upload was refused, in the fixed words its
// answer gives: a reader's own error may quote the document (its name,
// its fields), and the server logs it on a line of its own under the
// same request id, as it logs the cause of a failure.
func auditReason(err error) string {
	if u, ok := errors.AsType[*validation.UnreadableError](err); ok {
		return u.Reason()
	}
	if errors.Is(err, ports.ErrUnreadable) {
		return err.Error() // the validator's own fixed sentences
	}
	return ""
}

// auditOutcome names the class of a validation call's result.
func auditOutcome(err error) string {
	switch {
	case err == nil:
		return "validated"
	case errors.Is(err, ports.ErrUnreadable):
		return "unreadable"
	default:
		return "failed"
	}
}
