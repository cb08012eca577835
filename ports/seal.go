package ports

import "context"

// A ReportSeal is the validator's own seal (docs/decisions/0037): it
// signs what the validator issues about a verdict, so that the issued
// file can be validated in turn.
type ReportSeal interface {
	// PDF returns pdf signed as PAdES baseline (B, or T with a
	// time-stamping unit).
	PDF(ctx context.Context, pdf []byte) ([]byte, error)
	// JWS returns payload signed as a compact JWS of type typ, the seal's
	// chain in x5c.
	JWS(payload []byte, typ string) (string, error)
	// Subject names the seal as its certificate's subject does.
	Subject() string
}
