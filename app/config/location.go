package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// A Location names a file as the spec writes it: "classpath:tl/x.p12",
// "file:/etc/x.cer", "file:///etc/x.cer" or a plain path. The spec's
// defaults are classpath locations from the original deployment; here the
// class path is a directory, the resource root, so an operator can ship the
// same relative layout next to the binary.
type Location struct {
	// Raw is the value as configured, kept for messages and logs.
	Raw string
	// Classpath is true when Raw used the classpath: scheme.
	Classpath bool
	// Path is the file the location resolves to.
	Path string
}

// ResolveLocation turns a configured location into a file path. Classpath
// locations resolve against root (the working directory when root is
// empty); relative plain paths and relative file: URIs resolve against the
// working directory, as they would for any command-line tool.
func ResolveLocation(raw, root string) (Location, error) {
	loc := Location{Raw: raw}
	switch {
	case raw == "":
		return loc, fmt.Errorf("empty location")
	case strings.HasPrefix(raw, "classpath:"):
		rel := strings.TrimLeft(strings.TrimPrefix(raw, "classpath:"), "/")
		if rel == "" {
			return loc, fmt.Errorf("location %q names no resource", raw)
		}
		if !filepath.IsLocal(filepath.FromSlash(rel)) {
			return loc, fmt.Errorf("location %q leaves the resource root", raw)
		}
		if root == "" {
			root = "."
		}
		loc.Classpath = true
		loc.Path = filepath.Join(root, filepath.FromSlash(rel))
	case strings.HasPrefix(raw, "file:"):
		p, err := filePath(raw)
		if err != nil {
			return loc, err
		}
		loc.Path = p
	case strings.Contains(raw, "://"):
		return loc, fmt.Errorf("location %q: only classpath:, file: and plain paths are supported", raw)
	default:
		loc.Path = filepath.Clean(raw)
	}
	return loc, nil
}

// filePath reads both spellings of a file URI in use: the RFC 8089 form
// (file:///etc/x, file://localhost/etc/x) and the short form Java accepts
// (file:/etc/x, file:relative/x).
func filePath(raw string) (string, error) {
	rest := strings.TrimPrefix(raw, "file:")
	if strings.HasPrefix(rest, "//") {
		u, err := url.Parse(raw)
		if err != nil {
			return "", fmt.Errorf("location %q: %w", raw, err)
		}
		if u.Host != "" && u.Host != "localhost" {
			return "", fmt.Errorf("location %q: file URIs on another host are not supported", raw)
		}
		rest = u.Path
	} else if p, err := url.PathUnescape(rest); err == nil {
		rest = p
	}
	if rest == "" {
		return "", fmt.Errorf("location %q names no file", raw)
	}
	return filepath.Clean(filepath.FromSlash(rest)), nil
}
