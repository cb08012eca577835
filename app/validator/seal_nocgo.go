//go:build !cgo

package validator

import (
	"context"
	"crypto"
	"errors"

	"github.com/svc-dss/dss/ports"
)

// errNoPKCS11 is the report seal's PKCS#11 key in a build without cgo:
// the static validator image (deploy/validator) cannot load a PKCS#11
// module, so such a seal stops the start-up with this reason rather than
// failing at the first report.
var errNoPKCS11 = errors.New("this validator is built without cgo and cannot load a PKCS#11 module: seal with report-seal.pkcs12-file, or build with CGO_ENABLED=1")

// pkcs11Signer refuses: see errNoPKCS11.
func pkcs11Signer(context.Context, ports.Partition, ports.KeyRef) (crypto.Signer, error) {
	return nil, errNoPKCS11
}
