//go:build cgo

package validator

import (
	"context"
	"crypto"

	"github.com/svc-dss/dss/adapters/hsm"
	"github.com/svc-dss/dss/ports"
)

// pkcs11Signer is the report seal's key in a PKCS#11 token (cgo builds:
// miekg/pkcs11 loads the module through cgo).
func pkcs11Signer(ctx context.Context, p ports.Partition, key ports.KeyRef) (crypto.Signer, error) {
	return hsm.New(hsm.Options{}).Signer(ctx, p, key)
}
