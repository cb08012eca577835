package hsm

import (
	"errors"
	"fmt"
	"sync"

	"github.com/miekg/pkcs11"

	"github.com/svc-dss/dss/ports"
)

// modules holds one loaded library per path for the whole process, shared
// by every HSM: a PKCS#11 library has one state per process, so loading it
// twice gains nothing, and finalising it would end the sessions of every
// other user of it. Libraries are never unloaded or finalised.
var modules = struct {
	mu sync.Mutex // held while loading and initialising
	m  map[string]*module
}{m: map[string]*module{}}

type module struct {
	ctx         *pkcs11.Ctx
	initialized bool
}

// loadModule returns the initialised library at path. An initialisation by
// other code in the process (CKR_CRYPTOKI_ALREADY_INITIALIZED) is fine.
func loadModule(path string) (*pkcs11.Ctx, error) {
	if path == "" {
		return nil, fmt.Errorf("%w: partition names no PKCS#11 module", ports.ErrHSMUnavailable)
	}
	modules.mu.Lock()
	defer modules.mu.Unlock()
	m := modules.m[path]
	if m == nil {
		ctx := pkcs11.New(path)
		if ctx == nil {
			// miekg/pkcs11 does not pass dlerror on.
			return nil, fmt.Errorf("%w: load PKCS#11 module %s failed (missing, or not a PKCS#11 library for this platform)", ports.ErrHSMUnavailable, path)
		}
		// Kept even if C_Initialize fails below: the next call retries
		// the initialisation without loading the library again.
		m = &module{ctx: ctx}
		modules.m[path] = m
	}
	if !m.initialized {
		if err := m.ctx.Initialize(); err != nil && !isCKR(err, pkcs11.CKR_CRYPTOKI_ALREADY_INITIALIZED) {
			return nil, fmt.Errorf("%w: initialise PKCS#11 module %s: %w", ports.ErrHSMUnavailable, path, err)
		}
		m.initialized = true
	}
	return m.ctx, nil
}

// isCKR reports whether err is, or wraps, the PKCS#11 return value rv.
func isCKR(err error, rv uint) bool {
	var e pkcs11.Error
	return errors.As(err, &e) && uint(e) == rv
}
