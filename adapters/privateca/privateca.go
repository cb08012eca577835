// Package privateca loads administrator-supplied trust anchors from a
// directory (svc.dss.validator.private-ca.directory).
//
// Every .pem, .crt, .cer and .der file is read, PEM or DER; a file with
// several certificates contributes all of them. Loading is fail-soft per
// file: an unreadable file is logged by name and skipped, the others
// still load. Subdirectories and other extensions are ignored.
package privateca

import (
	"context"
	"crypto/x509"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/domain/trust"
)

var extensions = []string{".pem", ".crt", ".cer", ".der"}

// Load reads the anchors in dir, in file-name order. It returns an error
// only when the directory itself cannot be read; per-file problems are
// logged and returned as skipped file names.
func Load(ctx context.Context, dir string, logger *slog.Logger) (anchors []trust.PrivateAnchor, skipped []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("privateca: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !slices.Contains(extensions, strings.ToLower(filepath.Ext(e.Name()))) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		certs, err := readFile(path)
		if err != nil {
			logger.WarnContext(ctx, "private CA: skipping unreadable anchor file", slog.String("file", path), slog.String("error", err.Error()))
			skipped = append(skipped, e.Name())
			continue
		}
		for _, c := range certs {
			anchors = append(anchors, trust.PrivateAnchor{
				Subject: c.Subject.String(), NotBefore: c.NotBefore, NotAfter: c.NotAfter,
				Certificate: c.Raw, File: e.Name(),
			})
		}
	}
	return anchors, skipped, nil
}

func readFile(path string) ([]*x509.Certificate, error) {
	return keystore.ReadCertificateFile(path)
}
