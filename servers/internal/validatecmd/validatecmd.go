// Package validatecmd is the validate command, `validator [--config FILE]
// validate FILE ...`: the validation front door on one file, its summary
// as JSON on stdout, without a server. Both executables run it from
// here: validator-server (servers/validator), which also serves and runs
// the trust and db commands, and the validator executable
// (servers/validatorcli), which runs this command itself and hands every
// other to validator-server. It links nothing of the server (no HTTP
// framework, control database, session store or metrics), so that a
// one-shot validation does not pay for their initialisation
// (docs/decisions/0044).
package validatecmd

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/adapters/cryptosuite"
	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/adapters/policy"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/app/validator/configured"
)

// Usage is the command's usage line, printed with a usage error.
const Usage = `usage: validator [--config FILE] validate FILE [--detached FILE]... [--at RFC3339] [--trust-anchor CERT]... [--trusted-list FILE [--trusted-list-signer CERT]...]... [--certificate CERT]... [--offline] [--dev] [--lang en|de|fr|it] [--policy FILE]`

// validateCommand is `validate`: the same JSON as POST /api/validate,
// without a server.
type validateCommand struct {
	file     string
	detached []string
	at       time.Time
	anchors  []string
	// lists are the trusted-list files of --trusted-list, signers the
	// certificate files of --trusted-list-signer: when lists are given
	// they replace the configured lists and the cache is not touched.
	lists, signers []string
	// certificates are the files of --certificate: untrusted
	// certificates, intermediates or a signer's.
	certificates []string
	offline      bool
	dev          bool
	// lang is the language of the messages (--lang).
	lang catalog.Lang
	// policy is the validation policy of --policy; nil: the configured
	// default.
	policy *policy.Policy
}

// repeated collects a flag given several times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// parseValidate reads the command's arguments: the file and the flags in
// any order (ParseInterleaved). Anything it cannot use, an unknown flag,
// a second file, is a usage error, never dropped.
func parseValidate(args []string, stderr io.Writer) (*validateCommand, error) {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, Usage)
		fs.PrintDefaults()
	}
	var vc validateCommand
	var detached, anchors, lists, signers, certificates repeated
	at := fs.String("at", "", "validate at this RFC 3339 instant instead of now")
	fs.Var(&detached, "detached", "detached signed data `FILE` (repeatable)")
	fs.Var(&anchors, "trust-anchor", "extra trust anchor certificate `FILE`, PEM or DER, for this run (repeatable)")
	fs.Var(&lists, "trusted-list", "validate against the trusted list (LOTL, member-state or Swiss list) in `FILE` instead of the configured lists and their cache; a LOTL's pointers are followed among the given files only (repeatable)")
	fs.Var(&signers, "trusted-list-signer", "certificate `FILE`, PEM or DER, that may sign the LOTL or the Swiss list given with --trusted-list; without one they are reported unauthenticated (repeatable)")
	fs.Var(&certificates, "certificate", "certificate `FILE`, PEM or DER, one or several, that may serve as an intermediate or identify a signer, trusted for nothing (repeatable)")
	fs.BoolVar(&vc.offline, "offline", false, "fetch nothing: embedded revocation data and certificates only")
	fs.BoolVar(&vc.dev, "dev", false, "trust the development fixture lists and PKI")
	lang := fs.String("lang", "en", "the language of the errors and warnings: en, de, fr or it")
	policyFile := fs.String("policy", "", "validate under the validation policy in `FILE` (YAML, docs/validation-policy.schema.json) instead of the configured default")
	files, err := ParseInterleaved(fs, args)
	if err != nil {
		return nil, err
	}
	switch len(files) {
	case 0:
		fmt.Fprintln(stderr, Usage)
		return nil, errors.New("no file")
	case 1:
		vc.file = files[0]
	default:
		fmt.Fprintf(stderr, "validate: one file only: unexpected argument %q\n", files[1])
		fmt.Fprintln(stderr, Usage)
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
	if vc.lang, err = catalog.ParseLang(*lang); err != nil {
		fmt.Fprintf(stderr, "validate: --lang: %v\n", err)
		fmt.Fprintln(stderr, Usage)
		return nil, err
	}
	if len(signers) > 0 && len(lists) == 0 {
		fmt.Fprintln(stderr, "validate: --trusted-list-signer without --trusted-list: the signers authenticate the given lists")
		fmt.Fprintln(stderr, Usage)
		return nil, errors.New("signer without list")
	}
	if len(lists) > 0 && vc.dev {
		fmt.Fprintln(stderr, "validate: --trusted-list with --dev: the development mode trusts its own lists")
		fmt.Fprintln(stderr, Usage)
		return nil, errors.New("lists with dev")
	}
	if *policyFile != "" {
		p, err := policy.Load(*policyFile, cryptosuite.Parse)
		if err != nil {
			fmt.Fprintf(stderr, "validate: --policy: %v\n", err)
			return nil, err
		}
		vc.policy = &p
	}
	vc.detached, vc.anchors = detached, anchors
	vc.lists, vc.signers, vc.certificates = lists, signers, certificates
	return &vc, nil
}

// run validates the file through the validation front door built from
// cfg (its lists and cache, or the --trusted-list files) and the
// command's flags, and prints the summary. Exit codes: 0 for any
// validation result, 1 when a file cannot be read or the document cannot
// be validated.
func (vc *validateCommand) run(ctx context.Context, cfg config.Validator, ps configured.Policies, logger *slog.Logger, reg *formats.Registry, stdout, stderr io.Writer) int {
	data, release, err := readFile(vc.file)
	if err != nil {
		fmt.Fprintf(stderr, "validate: %v\n", err)
		return 1
	}
	defer release()
	doc := validation.Document{Name: filepath.Base(vc.file), Data: data, Policy: &ps.Default}
	if vc.policy != nil {
		doc.Policy = vc.policy
	}
	for _, d := range vc.detached {
		b, release, err := readFile(d)
		if err != nil {
			fmt.Fprintf(stderr, "validate: %v\n", err)
			return 1
		}
		defer release()
		doc.Detached = append(doc.Detached, validation.Part{Name: filepath.Base(d), Data: b})
	}
	anchors, ok := readCertificates("--trust-anchor", vc.anchors, stderr)
	if !ok {
		return 1
	}
	signers, ok := readCertificates("--trusted-list-signer", vc.signers, stderr)
	if !ok {
		return 1
	}
	certificates, ok := readCertificates("--certificate", vc.certificates, stderr)
	if !ok {
		return 1
	}
	var opts []validation.Option
	if len(vc.lists) > 0 {
		opts = configured.ValidationOptionsWithListFiles(cfg, logger, time.Now, signers, vc.lists...)
	} else if opts, err = configured.ValidationOptions(cfg, logger, time.Now); err != nil {
		logger.Error("start-up failed", slog.String("error", err.Error()))
		return 1
	}
	opts = append(opts, validation.WithRegistry(reg), validation.WithPolicy(*doc.Policy))
	if len(anchors) > 0 {
		opts = append(opts, validation.WithPrivateAnchors(anchors...))
	}
	if len(certificates) > 0 {
		opts = append(opts, validation.WithCertificates(certificates...))
	}
	if !vc.at.IsZero() {
		opts = append(opts, validation.WithTime(vc.at))
	}
	// Trusted lists come from the cache; in development mode the fixture
	// lists are fetched from the local publisher first.
	v, err := validation.New(ctx, opts...)
	if oe := (*validation.OptionError)(nil); errors.As(err, &oe) && oe.Option == "WithTrustedListFiles" {
		fmt.Fprintf(stderr, "validate: --trusted-list: %v\n", oe.Err)
		return 1
	}
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
	sum := res.Summary
	if vc.lang != catalog.English {
		// The summary is written in English; only another language
		// needs the catalogue, and only its own part of it.
		cat, err := catalog.New(vc.lang)
		if err != nil {
			fmt.Fprintf(stderr, "validate: %v\n", err)
			return 1
		}
		sum = cat.Summary(vc.lang, sum)
	}
	return PrintJSON(stdout, stderr, sum)
}

// readCertificates reads the certificate files of flag, PEM (one
// certificate or several) or DER; it says which file is unusable and
// why, and returns false, for the first that holds no certificate.
func readCertificates(flag string, files []string, stderr io.Writer) ([]*x509.Certificate, bool) {
	var out []*x509.Certificate
	for _, f := range files {
		certs, err := keystore.ReadCertificateFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "validate: %s: %v\n", flag, err)
			return nil, false
		}
		out = append(out, certs...)
	}
	return out, true
}

// A DevFunc sets up development mode for cfg: the fixture lists and PKI.
// It returns the configuration to validate with and the function that
// stops what it started.
type DevFunc func(cfg config.Validator, logger *slog.Logger) (config.Validator, func(), error)

// Main runs `validate` and returns the exit code: 0 for any validation
// result, 2 for unusable configuration or usage, 1 when a file cannot be
// read or the document cannot be validated. flags are the configuration
// flags before the command (--config, --dev), args the arguments after
// it; reg holds the formats read. When the configuration or the command
// asks for development mode, dev sets it up.
func Main(ctx context.Context, reg *formats.Registry, flags, args, environ []string, stdout, stderr io.Writer, dev DevFunc) int {
	cfg, err := config.LoadValidator(flags, environ, stderr)
	if errors.Is(err, config.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	vc, err := parseValidate(args, stderr)
	if err != nil {
		return 2
	}
	if vc.dev {
		cfg.EnableDev()
	}
	cfg.Offline = vc.offline
	// An unusable policy file stops start-up in one line, as an
	// unusable setting does (docs/decisions/0042).
	policies, err := configured.LoadPolicies(cfg)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	// The report goes to stdout, the logs to stderr, as JSON lines like
	// the server's (servers/internal/shell), which add the request's ID:
	// a command has none.
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if cfg.Dev {
		var stop func()
		cfg, stop, err = dev(cfg, logger)
		if err != nil {
			logger.Error("development trust data failed", slog.String("error", err.Error()))
			return 1
		}
		defer stop()
	}
	return vc.run(ctx, cfg, policies, logger, reg, stdout, stderr)
}

// Split separates the configuration flags from a command: the arguments
// from the first "trust", "validate" or "db" on.
func Split(args []string) (flags, command []string) {
	if i := slices.IndexFunc(args, func(a string) bool { return a == "trust" || a == "validate" || a == "db" }); i >= 0 {
		return args[:i], args[i:]
	}
	return args, nil
}

// PrintJSON writes v to stdout as indented JSON and returns the exit
// code: 1, with the error on stderr, when it cannot.
func PrintJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}
