// Package privateca loads administrator-supplied trust anchors from a
// directory (svc.dss.validator.private-ca.directory).
//
// Every .pem, .crt, .cer and .der file is read, PEM or DER; a file with
// several certificates contributes all of them. Loading is fail-soft per
// file: an unreadable file is logged by name and skipped, the others
// still load. Subdirectories and other extensions are ignored.
package privateca

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/svc-dss/dss/domain/trust"
)

// MaxFileBytes caps one anchor file; a certificate bundle is kilobytes.
const MaxFileBytes = 4 << 20

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
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.Size() > MaxFileBytes {
		return nil, fmt.Errorf("larger than %d bytes", MaxFileBytes)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(raw)
}

// Parse reads one or more certificates from PEM (any number of CERTIFICATE
// blocks; other blocks are ignored) or DER (one or several concatenated).
func Parse(raw []byte) ([]*x509.Certificate, error) {
	if !bytes.Contains(raw, []byte("-----BEGIN")) {
		certs, err := x509.ParseCertificates(raw)
		if err != nil {
			return nil, fmt.Errorf("not a DER certificate: %w", err)
		}
		if len(certs) == 0 {
			return nil, errors.New("no certificate")
		}
		return certs, nil
	}
	var certs []*x509.Certificate
	for rest := raw; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("PEM certificate %d: %w", len(certs)+1, err)
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, errors.New("no CERTIFICATE block")
	}
	return certs, nil
}
