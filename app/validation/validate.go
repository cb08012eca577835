package validation

import (
	"context"
	"crypto"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/policy"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/qualification"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// ErrUnreadable is wrapped by Validate's error for an upload that is no
// signature format we read, or one of our formats that cannot be read:
// the caller answers 400. Any other error is an infrastructure failure.
var ErrUnreadable = ports.ErrUnreadable

// An UnreadableError is a document in a format this service reads whose
// structure its reader cannot read; it wraps the reader's error, which
// wraps ErrUnreadable. That message is for the log and the validate
// command: it may quote the document (its file name, its field names,
// its bytes). A server tells the sender Reason alone.
type UnreadableError struct {
	Err error
	// Formats names the formats the service reads, for Reason; nil
	// means those of formats.Default.
	Formats []string
}

func (e *UnreadableError) Error() string { return e.Err.Error() }
func (e *UnreadableError) Unwrap() error { return e.Err }

// Reason says what went wrong in fixed words.
func (e *UnreadableError) Reason() string {
	names := e.Formats
	if names == nil {
		names = formats.Default().Names()
	}
	return fmt.Sprintf("unreadable document: it is in a format this service reads (%s), but its structure cannot be read", strings.Join(names, ", "))
}

// maxAIAHops bounds how far up a chain issuers are fetched by AIA.
const maxAIAHops = 4

// A Document is what is validated: a signed file, and the files of
// detached signed data its signatures cover.
type Document struct {
	// Name names the file in the summary and the reports; it is never
	// opened.
	Name string
	// Data is the file's content.
	Data []byte
	// Detached are the files a detached signature signs, in any order: a
	// reader matches them by name or by digest.
	Detached []Part
	// Policy is the validation policy to validate under; nil: the
	// validator's (WithPolicy, else the embedded default).
	Policy *policy.Policy
}

// A Part is one file of detached signed data.
type Part struct {
	Name string
	Data []byte
}

// A Result is what one validation found: its summary (the JSON the API
// answers with) and what the detailed report and the ETSI TS 119 102-2
// validation report are written from, the same result.
type Result struct {
	// Summary holds the indication, the trust framework and the
	// qualification of every signature, in document order.
	Summary verdict.ValidationSummary
	// Validation holds each signature's evidence and the process that
	// decided it (the document's certificates, revocation data and
	// time-stamp tokens, not its content), and the validation time.
	Validation report.Validation
}

// DetailedReport writes the detailed report: every check of the process,
// for every signature and time-stamp, as XML.
func (r *Result) DetailedReport() ([]byte, error) { return report.Detailed(r.Validation) }

// ETSIReport writes the ETSI TS 119 102-2 validation report. A document
// without signatures has none, even one holding time-stamp entries
// (docs/decisions/0032): the error says so.
func (r *Result) ETSIReport() ([]byte, error) { return report.ETSI(r.Validation) }

// hashAsideBytes is the size from which Validate hashes the document on
// another goroutine: SHA-256 of 1 MiB takes about a millisecond.
const hashAsideBytes = 1 << 20

// Validate validates every signature of doc against one trust snapshot
// (validation-service.md §1), counter-signatures included, each by the
// same process and reported right after the signature it counter-signs
// (docs/decisions/0017), and every time-stamp that is an entry of
// doc of its own (a time-stamp-only container, a bare RFC 3161
// time-stamp with its data: docs/decisions/0032). A failed signature is
// a result, not an error: the error is for a document that cannot be
// validated, wrapping ErrUnreadable (errors.Is) when it is no format the
// validator reads or cannot be read, or for a failure of the validator
// itself (a *PanicError, a context error). The same document, snapshot
// and time give the same result.
//
// A panic in validating doc, on any of the goroutines the validation
// runs on, is logged with its stack and returned as a *PanicError.
func (v *Validator) Validate(ctx context.Context, doc Document) (res *Result, err error) {
	began := time.Now()
	defer func() {
		// After recoverValidation (deferred below, so run first): a
		// validation that panicked is not reported.
		if err == nil {
			v.observer.Validated(&res.Summary, doc.size(), time.Since(began))
		}
	}()
	in := ports.Document{Name: doc.Name, Data: doc.Data, Detached: make([]ports.Detached, len(doc.Detached))}
	for i, p := range doc.Detached {
		in.Detached[i] = ports.Detached{Name: p.Name, Data: p.Data}
	}
	defer v.recoverValidation(ctx, in, &err)
	at := v.at
	if at.IsZero() {
		at = v.clock()
	}
	chosen := v.policy
	if doc.Policy != nil {
		chosen = *doc.Policy
	}
	// The policy's suite and window, when it names them, else the
	// validator's (WithCryptographicSuite, Judging, WithExpiryWarning).
	vp := etsi.Policy{ValidationTime: at, Algorithms: v.catalogue(), ExpiryWarning: v.expiryWarning, Constraints: chosen.Constraints}
	if chosen.Algorithms != nil {
		vp.Algorithms = chosen.Algorithms
	}
	if chosen.ExpiryWarning != 0 {
		vp.ExpiryWarning = chosen.ExpiryWarning
	}
	if err := vp.Validate(); err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	// The report names the document by its SHA-256: a large document is
	// hashed on the other core while the signatures are read and
	// validated, which halves the wait; a small one here, in less than a
	// millisecond, since handing it to another thread would cost more CPU
	// than it saves time (docs/decisions/0044).
	digest := make(chan [sha256.Size]byte, 1)
	if len(doc.Data) < hashAsideBytes {
		digest <- sha256.Sum256(doc.Data)
	} else {
		go func() { digest <- sha256.Sum256(doc.Data) }()
	}
	snap := v.trust.Snapshot()
	anchors := v.anchorSets.of(snap)
	if len(v.anchors) > 0 {
		extra := make([]certpath.Anchor, len(v.anchors))
		for i, c := range v.anchors {
			extra[i] = certpath.Anchor{Certificate: c, Framework: trust.Unknown, Private: true}
		}
		anchors = anchors.With(extra...)
	}
	in.Certificates = slices.Concat(anchors.Certificates(), v.certificates)
	contents, err := v.read(ctx, in)
	if err != nil {
		return nil, err
	}
	sigs, entries := withCounterSignatures(contents.Signatures), contents.Timestamps
	// Signatures are independent: they are validated side by side, on as
	// many cores as there are, and reported in document order. A document
	// with a single signature or time-stamp entry is validated on this
	// goroutine: another would only hand the work to another thread.
	reports := make([]verdict.SignatureReport, len(sigs))
	details := make([]report.Signature, len(sigs))
	errs := make([]error, len(sigs))
	checks := &signatureChecks{}
	var wg sync.WaitGroup
	spawn := wg.Go
	if len(sigs)+len(entries) == 1 {
		spawn = func(f func()) { f() }
	}
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, sig := range sigs {
		slots <- struct{}{}
		spawn(func() {
			defer func() { <-slots }()
			defer v.recoverValidation(ctx, in, &errs[i])
			if err := ctx.Err(); err != nil {
				errs[i] = err // a validation past its deadline starts no more signatures
				return
			}
			in, err := v.inputs(ctx, sig, anchors, checks, at)
			if err != nil {
				errs[i] = err
				return
			}
			res := etsi.Validate(sig, in, vp)
			reports[i] = etsi.Report(sig, res)
			etsi.Describe(&reports[i], sig, res, in.Plan)
			reports[i].SignedBy = qualification.SignedBy(sig.SigningCertificate)
			qualification.OfSignature(sig, res, anchors).Apply(&reports[i])
			details[i] = report.Signature{Evidence: sig, Result: res}
		})
	}
	// Time-stamp entries likewise, each with its own plan of TSA paths
	// and revocation facts, gathered as for a signature's time-stamps
	// (docs/decisions/0032).
	entryReports := make([]verdict.TimestampEntryReport, len(entries))
	entryDetails := make([]report.TimestampEntry, len(entries))
	entryErrs := make([]error, len(entries))
	for i, e := range entries {
		slots <- struct{}{}
		spawn(func() {
			defer func() { <-slots }()
			defer v.recoverValidation(ctx, in, &entryErrs[i])
			if err := ctx.Err(); err != nil {
				entryErrs[i] = err
				return
			}
			in, err := v.inputs(ctx, e.Evidence(), anchors, checks, at)
			if err != nil {
				entryErrs[i] = err
				return
			}
			res := etsi.ValidateTimestamp(e, in, vp)
			entryReports[i] = qualification.OfTimestamp(e, res, anchors)
			entryDetails[i] = report.TimestampEntry{Evidence: e, Result: res}
		})
	}
	wg.Wait()
	if err := joinErrors(ctx, append(errs, entryErrs...)); err != nil {
		return nil, err
	}
	warnUnsignedParts(reports, in.Detached, sigs)
	td := verdict.NewTrustData(snap, at, v.thresholds)
	td.Snapshot = trustSnapshot(snap, v.anchors)
	sum := verdict.Summarize(doc.Name, <-digest, reports, td).WithTimestamps(entryReports)
	sum.ValidationPolicy = &verdict.PolicyName{Name: chosen.Name, SHA256: chosen.DigestHex()}
	return &Result{Summary: sum, Validation: report.Validation{Summary: sum, ValidationTime: at, Signatures: details, Timestamps: entryDetails}}, nil
}

// joinErrors joins the errors of a validation's signatures, the
// context's error once however many signatures it stopped. A context
// that ended after every signature was done stops nothing.
func joinErrors(ctx context.Context, errs []error) error {
	ended, stopped := ctx.Err(), false
	var kept []error
	for _, err := range errs {
		switch {
		case err == nil:
		case ended != nil && errors.Is(err, ended):
			stopped = true
		default:
			kept = append(kept, err)
		}
	}
	if stopped {
		kept = append(kept, fmt.Errorf("validation stopped: %w", ended))
	}
	return errors.Join(kept...)
}

// withCounterSignatures returns sigs with each signature's
// counter-signatures after it, depth first, so that every
// counter-signature is validated and reported as a signature of its own
// by the same process (its CounterSignatureOf names its parent). The
// readers bound their number and nesting (MaxSignatures,
// MaxCounterSignatureDepth).
func withCounterSignatures(sigs []ades.Signature) []ades.Signature {
	n := 0
	var count func([]ades.Signature)
	count = func(ss []ades.Signature) {
		for _, s := range ss {
			n++
			count(s.CounterSignatures)
		}
	}
	count(sigs)
	if n == len(sigs) {
		return sigs
	}
	all := make([]ades.Signature, 0, n)
	var add func([]ades.Signature)
	add = func(ss []ades.Signature) {
		for _, s := range ss {
			all = append(all, s)
			add(s.CounterSignatures)
		}
	}
	add(sigs)
	return all
}

// read finds the reader of doc's format and reads what doc holds: its
// signatures, and its time-stamp entries when the reader is a
// ports.ContentsReader.
func (v *Validator) read(ctx context.Context, doc ports.Document) (ades.Contents, error) {
	if len(doc.Data) == 0 {
		return ades.Contents{}, fmt.Errorf("%w: the uploaded file is empty", ports.ErrUnreadable)
	}
	for _, r := range v.readers {
		var c ades.Contents
		var err error
		if cr, ok := r.(ports.ContentsReader); ok {
			c, err = cr.ReadContents(ctx, doc)
		} else {
			c.Signatures, err = r.Read(ctx, doc)
		}
		switch {
		case err == nil:
			return c, nil
		case errors.Is(err, ports.ErrNotThisFormat):
			continue
		case errors.Is(err, ports.ErrUnreadable):
			v.logParserPanic(ctx, doc, err)
			return ades.Contents{}, &UnreadableError{Err: err, Formats: v.formats.Names()}
		default:
			return ades.Contents{}, fmt.Errorf("app: reading %s: %w", doc.Name, err)
		}
	}
	return ades.Contents{}, fmt.Errorf("%w: not a signature format this service reads (%s)", ports.ErrUnreadable, v.formats.List())
}

// inputs gathers what the process needs beyond the evidence: the plan of
// its certificate paths, the issuers the document lacks (AIA) and
// revocation facts for every link the plan names, fetched when the
// embedded ones cannot serve at the validation time at.
func (v *Validator) inputs(ctx context.Context, sig ades.Signature, anchors *certpath.AnchorSet, checks *signatureChecks, at time.Time) (etsi.Inputs, error) {
	in := etsi.Inputs{
		Anchors:        anchors,
		Intermediates:  slices.Concat(sig.Certificates, v.certificates),
		CheckSignature: checks.check,
		Revocation:     map[string][]revocation.Fact{},
	}
	for _, ts := range sig.Timestamps {
		in.Intermediates = append(in.Intermediates, ts.Certificates...)
	}
	plan, err := v.plan(ctx, sig, &in)
	if err != nil {
		return etsi.Inputs{}, err
	}
	embedded := ports.EmbeddedRevocation{CRLs: slices.Clone(sig.CRLs), OCSPResponses: slices.Clone(sig.OCSPResponses), TrustedResponders: anchors.Responders()}
	for _, ts := range sig.Timestamps {
		embedded.CRLs = append(embedded.CRLs, ts.CRLs...)
		embedded.OCSPResponses = append(embedded.OCSPResponses, ts.OCSPResponses...)
	}
	for _, link := range plan.Needs() {
		facts, err := v.revocation.Revocation(ctx, link.Cert, link.Issuer, embedded, at)
		if err != nil {
			return etsi.Inputs{}, fmt.Errorf("app: revocation: %w", err)
		}
		key := etsi.Key(link.Cert)
		in.Revocation[key] = append(in.Revocation[key], facts...)
	}
	in.Plan = plan
	return in, nil
}

// plan builds the signature's plan (etsi.NewPlan): its candidate paths,
// built once. The signing and time-stamping certificates that reach no
// anchor get their issuers fetched by AIA, walking up one hop per round
// for at most maxAIAHops rounds; the plan is built again only after a
// round fetched something.
func (v *Validator) plan(ctx context.Context, sig ades.Signature, in *etsi.Inputs) (*etsi.Plan, error) {
	plan := etsi.NewPlan(sig, *in)
	// next is, per leaf, the certificate whose AIA the next hop follows;
	// nil once the walk found nothing more.
	next := map[string]*x509.Certificate{}
	for range maxAIAHops {
		fetched := false
		for _, leaf := range plan.Unanchored() {
			from, walked := next[etsi.Key(leaf)]
			if !walked {
				from = leaf
			}
			if from == nil {
				continue
			}
			found, err := v.issuers.Issuers(ctx, from)
			if err != nil {
				return nil, fmt.Errorf("app: issuers: %w", err)
			}
			if len(found) == 0 {
				next[etsi.Key(leaf)] = nil
				continue
			}
			in.Intermediates = append(in.Intermediates, found...)
			next[etsi.Key(leaf)] = found[0]
			fetched = true
		}
		if !fetched {
			break
		}
		plan = etsi.NewPlan(sig, *in)
	}
	return plan, nil
}

// anchorCache keeps the anchors of the last trust snapshot validated
// against, parsed and indexed: for the EU lists that takes longer than
// validating a signature (tens of milliseconds), and a snapshot never
// changes, so it is done once per snapshot, not once per validation.
type anchorCache struct {
	mu   sync.Mutex
	snap *trust.Snapshot
	set  *certpath.AnchorSet
}

// of returns the anchors of snap.
func (c *anchorCache) of(snap *trust.Snapshot) *certpath.AnchorSet {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.set == nil || c.snap != snap {
		c.snap, c.set = snap, certpath.NewAnchorSet(certpath.AnchorsFrom(snap, cert.Parse))
	}
	return c.set
}

// signatureChecks remembers the certificate signature checks of one
// validation: the signatures of a document share their chains, and each
// path is built more than once (to know what revocation data to gather,
// then in the process), while a check is an RSA or ECDSA verification.
// Safe for concurrent use.
type signatureChecks struct{ done sync.Map }

func (c *signatureChecks) check(child *x509.Certificate, key crypto.PublicKey) error {
	spki, err := x509.MarshalPKIXPublicKey(key)
	if err != nil { // a key Go cannot write (brainpool): checked every time
		return cert.CheckCertificateSignature(child, key)
	}
	h := sha256.New()
	h.Write(child.Raw)
	h.Write(spki)
	var id [sha256.Size]byte
	h.Sum(id[:0])
	if r, ok := c.done.Load(id); ok {
		return r.(checkResult).err
	}
	err = cert.CheckCertificateSignature(child, key)
	c.done.Store(id, checkResult{err})
	return err
}

type checkResult struct{ err error }
