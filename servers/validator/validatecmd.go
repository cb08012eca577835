package main

import (
	"context"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/app/validation"
)

const validateUsage = `usage: validator [--config FILE] validate FILE [--detached FILE]... [--at RFC3339] [--trust-anchor CERT]... [--offline] [--dev]`

// validateCommand is `validate`: the same JSON as POST /api/validate,
// without a server.
type validateCommand struct {
	file     string
	detached []string
	at       time.Time
	anchors  []string
	offline  bool
	dev      bool
}

// repeated collects a flag given several times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// parseValidate reads the command's arguments: the file and the flags in
// any order (parseInterleaved). Anything it cannot use, an unknown flag,
// a second file, is a usage error, never dropped.
func parseValidate(args []string, stderr io.Writer) (*validateCommand, error) {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, validateUsage)
		fs.PrintDefaults()
	}
	var vc validateCommand
	var detached, anchors repeated
	at := fs.String("at", "", "validate at this RFC 3339 instant instead of now")
	fs.Var(&detached, "detached", "detached signed data `FILE` (repeatable)")
	fs.Var(&anchors, "trust-anchor", "extra trust anchor certificate `FILE`, PEM or DER, for this run (repeatable)")
	fs.BoolVar(&vc.offline, "offline", false, "fetch nothing: embedded revocation data and certificates only")
	fs.BoolVar(&vc.dev, "dev", false, "trust the development fixture lists and PKI")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, err
	}
	switch len(files) {
	case 0:
		fmt.Fprintln(stderr, validateUsage)
		return nil, errors.New("no file")
	case 1:
		vc.file = files[0]
	default:
		fmt.Fprintf(stderr, "validate: one file only: unexpected argument %q\n", files[1])
		fmt.Fprintln(stderr, validateUsage)
		return nil, errors.New("extra arguments")
	}
	if *at != "" {
		t, err := time.Parse(time.RFC3339, *at)
		if err != nil {
			fmt.Fprintf(stderr, "validate: --at %q is not an RFC 3339 time (2026-11-21T12:00:00Z)\n", *at)
			return nil, err
		}
		vc.at = t
	}
	vc.detached, vc.anchors = detached, anchors
	return &vc, nil
}

// run validates the file through the validation front door built from
// opts (the configuration's) and the command's flags, and prints the
// summary. Exit codes: 0 for any validation result, 1 when the file
// cannot be read or validated.
func (vc *validateCommand) run(ctx context.Context, opts []validation.Option, stdout, stderr io.Writer) int {
	data, release, err := readFile(vc.file)
	if err != nil {
		fmt.Fprintf(stderr, "validate: %v\n", err)
		return 1
	}
	defer release()
	doc := validation.Document{Name: filepath.Base(vc.file), Data: data}
	for _, d := range vc.detached {
		b, release, err := readFile(d)
		if err != nil {
			fmt.Fprintf(stderr, "validate: %v\n", err)
			return 1
		}
		defer release()
		doc.Detached = append(doc.Detached, validation.Part{Name: filepath.Base(d), Data: b})
	}
	var anchors []*x509.Certificate
	for _, f := range vc.anchors {
		certs, err := keystore.ReadCertificateFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "validate: --trust-anchor: %v\n", err)
			return 1
		}
		anchors = append(anchors, certs...)
	}
	if len(anchors) > 0 {
		opts = append(opts, validation.WithPrivateAnchors(anchors...))
	}
	if !vc.at.IsZero() {
		opts = append(opts, validation.WithTime(vc.at))
	}
	// Trusted lists come from the cache; in development mode the fixture
	// lists are fetched from the local publisher first.
	v, err := validation.New(ctx, opts...)
	if err != nil {
		fmt.Fprintf(stderr, "validate: %v\n", err)
		return 1
	}
	if vc.dev {
		v.Refresh(ctx)
	}
	res, err := v.Validate(ctx, doc)
	if err != nil {
		fmt.Fprintf(stderr, "validate: %v\n", err)
		return 1
	}
	return printJSON(stdout, stderr, res.Summary)
}
