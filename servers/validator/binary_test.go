package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// builtDir holds the binaries the tests build once per test process;
// TestMain removes it.
var builtDir = sync.OnceValues(func() (string, error) { return os.MkdirTemp("", "svcdss-validator-bin-") })

// builtValidator is the validator binary (without development mode),
// built on first use.
var builtValidator = sync.OnceValues(func() (string, error) {
	dir, err := builtDir()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "validator")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	return bin, nil
})

// removeBuilt removes what the tests built.
func removeBuilt() error {
	dir, err := builtDir()
	if err != nil {
		return nil // nothing was made
	}
	return os.RemoveAll(dir)
}
