package egress

import (
	"bytes"
	"context"
	"crypto"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/crl"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/ports"
)

// RevocationSource is the ports.RevocationSource of the service: it reads
// the revocation data a document carries and, unless offline, asks the
// certificate's OCSP responders and CRL distribution points through the
// guarded client of NewCertClient. It is safe for concurrent use.
//
// What counts as usable data:
//
//   - An OCSP response, embedded as a full OCSPResponse or as a bare
//     BasicOCSPResponse, that is successful, holds a SingleResponse about
//     the certificate (BasicResponse.Find) and is signed by the issuer or
//     a responder the issuer delegated (BasicResponse.Verify).
//   - A CRL whose issuer name is the issuer's subject, whose signature
//     verifies with the issuer's key (CRL.CheckSignatureFrom), which is
//     complete (no delta CRL indicator), has no critical extension the
//     crl package does not interpret, and whose issuing distribution
//     point, if any, covers the certificate: not indirect, not limited
//     to some reasons, to attribute certificates, or to CA or end-entity
//     certificates when the certificate is of the other kind. The
//     distribution point name itself is not compared with the
//     certificate's. Indirect CRLs (signed by a CRL issuer other than the
//     certificate issuer) are out of scope and skipped.
//
// Unusable data is skipped and logged (DEBUG for data about another
// certificate or issuer, WARN otherwise); it never causes an error.
type RevocationSource struct {
	client   *http.Client
	cache    *RevocationCache
	logger   *slog.Logger
	offline  bool
	observer ports.RevocationObserver
}

var _ ports.RevocationSource = (*RevocationSource)(nil)

// NewRevocationSource returns a RevocationSource that fetches with client,
// which must be NewCertClient's, and keeps what it fetched in cache.
// A nil cache caches nothing, a nil logger logs nothing, and a nil client
// fetches nothing, as offline does: only embedded data is then read.
func NewRevocationSource(client *http.Client, cache *RevocationCache, logger *slog.Logger, offline bool) *RevocationSource {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &RevocationSource{client: client, cache: cache, logger: logger, offline: offline || client == nil, observer: ports.NopRevocationObserver{}}
}

// Observe reports every online fetch and cache hit of s to o, and returns
// s. Call it before s is used.
func (s *RevocationSource) Observe(o ports.RevocationObserver) *RevocationSource {
	s.observer = o
	return s
}

// Revocation returns the usable facts about cert, issued by issuer, for
// a validation at at: those of the embedded data, by descending
// ThisUpdate, then, when none of them can serve at at
// (revocation.Serves, the rule the ETSI process applies) and the source
// is online, those fetched. Embedded facts that cannot serve (GOOD but
// no longer current at at, GOOD issued after the certificate expired,
// UNKNOWN) are returned too: the process may still use them with a
// proof of existence, and reports them. Data the source cannot use at all (about another certificate or
// issuer, from a responder the issuer did not authorise, unverifiable)
// gives no fact.
//
// Online, the OCSP responders of cert are asked in the certificate's
// order and the first usable answer is kept; the CRL distribution points
// are then tried in order, first usable CRL kept, unless OCSP said good
// or revoked. OCSP answers are cached per issuer key and serial number,
// CRLs per issuer and URL, both until their nextUpdate.
//
// The errors are the context's, when it is done, and a nil cert or
// issuer or a zero at: fetch failures and refusals by the egress guard
// are logged at WARN and yield no fact.
func (s *RevocationSource) Revocation(ctx context.Context, cert, issuer *x509.Certificate, embedded ports.EmbeddedRevocation, at time.Time) ([]revocation.Fact, error) {
	if cert == nil || issuer == nil {
		return nil, errors.New("egress: revocation: certificate and issuer are required")
	}
	if at.IsZero() {
		return nil, errors.New("egress: revocation: the validation time is required")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("egress: revocation: %w", err)
	}
	facts := s.embeddedFacts(ctx, cert, issuer, embedded)
	if s.offline || revocation.Serves(facts, cert, issuer, at) {
		return facts, nil
	}
	if len(facts) > 0 {
		s.logSkip(ctx, slog.LevelDebug, "embedded revocation data cannot serve at the validation time: fetching", cert,
			slog.Int("facts", len(facts)), slog.Time("validationTime", at))
	}
	online, err := s.onlineFacts(ctx, cert, issuer, embedded.TrustedResponders)
	if err != nil {
		return nil, err
	}
	return append(facts, online...), nil
}

// embeddedFacts reads the embedded responses and CRLs; identical
// encodings are read once.
func (s *RevocationSource) embeddedFacts(ctx context.Context, cert, issuer *x509.Certificate, e ports.EmbeddedRevocation) []revocation.Fact {
	var facts []revocation.Fact
	seen := make(map[[sha256.Size]byte]bool)
	for i, raw := range e.OCSPResponses {
		sum := sha256.Sum256(raw)
		if seen[sum] {
			continue
		}
		seen[sum] = true
		resp, err := ParseOCSP(raw)
		if err != nil {
			s.logSkip(ctx, slog.LevelWarn, "embedded OCSP response unreadable", cert, slog.Int("index", i), slog.String("reason", err.Error()))
			continue
		}
		f, level, err := ocspFact(resp, cert, issuer, e.TrustedResponders)
		if err != nil {
			s.logSkip(ctx, level, "embedded OCSP response not usable", cert, slog.Int("index", i), slog.String("reason", err.Error()))
			continue
		}
		f.Embedded = true
		facts = append(facts, f)
	}
	for i, raw := range e.CRLs {
		sum := sha256.Sum256(raw)
		if seen[sum] {
			continue
		}
		seen[sum] = true
		l, err := crl.Parse(raw)
		if err != nil {
			s.logSkip(ctx, slog.LevelWarn, "embedded CRL unreadable", cert, slog.Int("index", i), slog.String("reason", err.Error()))
			continue
		}
		if !bytes.Equal(l.RawIssuer, issuer.RawSubject) {
			s.logSkip(ctx, slog.LevelDebug, "embedded CRL of another issuer", cert, slog.Int("index", i), slog.String("crlIssuer", l.Issuer.String()))
			continue
		}
		if err := l.CheckSignatureFrom(issuer); err != nil {
			s.logSkip(ctx, slog.LevelWarn, "embedded CRL not usable", cert, slog.Int("index", i), slog.String("reason", err.Error()))
			continue
		}
		f, err := crlFact(l, cert, issuer)
		if err != nil {
			s.logSkip(ctx, slog.LevelWarn, "embedded CRL not usable", cert, slog.Int("index", i), slog.String("reason", err.Error()))
			continue
		}
		f.Embedded = true
		facts = append(facts, f)
	}
	sortFacts(facts)
	return facts
}

// onlineFacts asks OCSP, then the CRL distribution points.
func (s *RevocationSource) onlineFacts(ctx context.Context, cert, issuer *x509.Certificate, trusted []*x509.Certificate) ([]revocation.Fact, error) {
	var facts []revocation.Fact
	f, ok, err := s.onlineOCSP(ctx, cert, issuer, trusted)
	if err != nil {
		return nil, err
	}
	if ok {
		facts = append(facts, f)
		if f.Status != revocation.Unknown {
			return facts, nil
		}
	}
	f, ok, err = s.onlineCRL(ctx, cert, issuer)
	if err != nil {
		return nil, err
	}
	if ok {
		facts = append(facts, f)
	}
	sortFacts(facts)
	return facts, nil
}

func (s *RevocationSource) onlineOCSP(ctx context.Context, cert, issuer *x509.Certificate, trusted []*x509.Certificate) (revocation.Fact, bool, error) {
	if s.cache != nil {
		if resp, ok := s.cache.OCSP(issuer, cert.SerialNumber); ok {
			// Cached responses verified when stored; verifying again
			// recovers the signer, which the cache does not keep.
			if f, _, err := ocspFact(resp, cert, issuer, trusted); err == nil {
				s.observer.RevocationCacheHit(ports.RevocationOCSP)
				return f, true, nil
			}
		}
	}
	if len(cert.OCSPServer) == 0 {
		return revocation.Fact{}, false, nil
	}
	req, err := ocsp.Request(cert, issuer, crypto.SHA1)
	if err != nil {
		s.logSkip(ctx, slog.LevelWarn, "OCSP request not built", cert, slog.String("reason", err.Error()))
		return revocation.Fact{}, false, nil
	}
	for _, u := range cert.OCSPServer {
		resp, err := ExchangeOCSP(ctx, s.client, u, req)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return revocation.Fact{}, false, fmt.Errorf("egress: revocation: %w", ctxErr)
		}
		if err != nil {
			s.fetchFailed(ctx, ports.RevocationOCSP, u, cert, err)
			continue
		}
		f, _, err := ocspFact(resp, cert, issuer, trusted)
		if err != nil {
			s.observer.RevocationFetched(ports.RevocationOCSP, ports.FetchUnusable)
			s.logFetch(ctx, "OCSP", u, cert, err)
			continue
		}
		s.observer.RevocationFetched(ports.RevocationOCSP, ports.FetchOK)
		if s.cache != nil {
			s.cache.PutOCSP(issuer, cert.SerialNumber, resp, f.NextUpdate)
		}
		return f, true, nil
	}
	return revocation.Fact{}, false, nil
}

func (s *RevocationSource) onlineCRL(ctx context.Context, cert, issuer *x509.Certificate) (revocation.Fact, bool, error) {
	for _, u := range cert.CRLDistributionPoints {
		var l *crl.CRL
		if s.cache != nil {
			l, _ = s.cache.CRL(issuer, u)
		}
		if l != nil {
			s.observer.RevocationCacheHit(ports.RevocationCRL)
		} else {
			var err error
			l, err = FetchCRL(ctx, s.client, u)
			if ctxErr := ctx.Err(); ctxErr != nil {
				return revocation.Fact{}, false, fmt.Errorf("egress: revocation: %w", ctxErr)
			}
			if err != nil {
				s.fetchFailed(ctx, ports.RevocationCRL, u, cert, err)
				continue
			}
			if err := l.CheckSignatureFrom(issuer); err != nil {
				s.observer.RevocationFetched(ports.RevocationCRL, ports.FetchUnusable)
				s.logFetch(ctx, "CRL", u, cert, err)
				continue
			}
			s.observer.RevocationFetched(ports.RevocationCRL, ports.FetchOK)
			if s.cache != nil {
				s.cache.PutCRL(issuer, u, l)
			}
		}
		f, err := crlFact(l, cert, issuer)
		if err != nil {
			s.logFetch(ctx, "CRL", u, cert, err)
			continue
		}
		return f, true, nil
	}
	return revocation.Fact{}, false, nil
}

// ocspFact checks resp against cert and issuer and returns its fact: it
// must be signed by issuer, a responder issuer delegated, or one of the
// trusted responders. The level is the one to log a failure at: DEBUG
// for a response about another certificate, WARN otherwise.
func ocspFact(resp *ocsp.Response, cert, issuer *x509.Certificate, trusted []*x509.Certificate) (revocation.Fact, slog.Level, error) {
	if resp.Basic == nil {
		return revocation.Fact{}, slog.LevelWarn, fmt.Errorf("%w: response status %v", ErrOCSPUnavailable, resp.Status)
	}
	sr, err := resp.Basic.Find(cert, issuer)
	if err != nil {
		return revocation.Fact{}, slog.LevelDebug, err
	}
	signer, err := resp.Basic.Verify(issuer)
	if errors.Is(err, ocsp.ErrUnauthorisedResponder) && len(trusted) > 0 {
		// Neither the issuer nor its delegate: perhaps a responder the
		// trusted lists vouch for. Its own failure would say less.
		if t, terr := resp.Basic.VerifyTrusted(trusted); terr == nil {
			signer, err = t, nil
		}
	}
	if err != nil {
		return revocation.Fact{}, slog.LevelWarn, err
	}
	f := revocation.Fact{
		Certificate: cert,
		Issuer:      issuer,
		Source:      revocation.OCSP,
		ProducedAt:  resp.Basic.ProducedAt,
		ThisUpdate:  sr.ThisUpdate,
		NextUpdate:  sr.NextUpdate,
		Signer:      signer.Certificate,
		Delegated:   signer.Delegated,
		NoCheck:     signer.NoCheck,
		Raw:         resp.Basic.Raw,

		SignatureAlgorithm: resp.Basic.SignatureAlgorithm,
	}
	switch sr.Status {
	case ocsp.Good:
		f.Status = revocation.Good
	case ocsp.Revoked:
		f.Status = revocation.Revoked
		f.RevokedAt = sr.RevocationTime
		f.Reason = sr.RevocationReason
	default:
		f.Status = revocation.Unknown
	}
	return f, slog.LevelWarn, nil
}

// crlFact returns the fact of l, whose signature by issuer has been
// checked, about cert, when l is a CRL this source can use for cert.
func crlFact(l *crl.CRL, cert, issuer *x509.Certificate) (revocation.Fact, error) {
	if len(l.UnhandledCriticalExtensions) > 0 {
		return revocation.Fact{}, fmt.Errorf("CRL has unhandled critical extensions %v", l.UnhandledCriticalExtensions)
	}
	if l.DeltaCRLIndicator != nil {
		return revocation.Fact{}, errors.New("delta CRLs are not used")
	}
	if err := checkCRLScope(l.IssuingDistributionPoint, cert); err != nil {
		return revocation.Fact{}, err
	}
	f := revocation.Fact{
		Certificate: cert,
		Issuer:      issuer,
		Source:      revocation.CRL,
		Status:      revocation.Good,
		ThisUpdate:  l.ThisUpdate,
		NextUpdate:  l.NextUpdate,
		Signer:      issuer,
		Raw:         l.Raw,

		SignatureAlgorithm: l.SignatureAlgorithm,
	}
	if revoked, at, reason := l.Status(cert.SerialNumber); revoked {
		f.Status = revocation.Revoked
		f.RevokedAt = at
		f.Reason = reason
	}
	return f, nil
}

// Context-specific tags of IssuingDistributionPoint (RFC 5280, section
// 5.2.5), implicitly tagged.
var (
	idpName           = cbasn1.Tag(0).ContextSpecific().Constructed()
	idpUserCerts      = cbasn1.Tag(1).ContextSpecific()
	idpCACerts        = cbasn1.Tag(2).ContextSpecific()
	idpSomeReasons    = cbasn1.Tag(3).ContextSpecific()
	idpIndirect       = cbasn1.Tag(4).ContextSpecific()
	idpAttributeCerts = cbasn1.Tag(5).ContextSpecific()
)

// checkCRLScope returns an error when the issuing distribution point idp
// (DER, nil when absent) says the CRL does not cover cert completely.
func checkCRLScope(idp []byte, cert *x509.Certificate) error {
	if idp == nil {
		return nil
	}
	bad := errors.New("CRL issuing distribution point malformed")
	in := cryptobyte.String(idp)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() || !seq.SkipOptionalASN1(idpName) {
		return bad
	}
	readBool := func(tag cbasn1.Tag) (bool, bool) {
		var v cryptobyte.String
		var present bool
		if !seq.ReadOptionalASN1(&v, &present, tag) {
			return false, false
		}
		if !present {
			return false, true
		}
		return len(v) == 1 && v[0] != 0, len(v) == 1
	}
	userOnly, ok1 := readBool(idpUserCerts)
	caOnly, ok2 := readBool(idpCACerts)
	var reasons cryptobyte.String
	var someReasons bool
	ok3 := seq.ReadOptionalASN1(&reasons, &someReasons, idpSomeReasons)
	indirect, ok4 := readBool(idpIndirect)
	attrOnly, ok5 := readBool(idpAttributeCerts)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !seq.Empty() {
		return bad
	}
	isCA := cert.BasicConstraintsValid && cert.IsCA
	switch {
	case indirect:
		return errors.New("indirect CRLs are not used")
	case someReasons:
		return errors.New("CRL covers only some reasons")
	case attrOnly:
		return errors.New("CRL covers only attribute certificates")
	case userOnly && isCA:
		return errors.New("CRL covers only end-entity certificates")
	case caOnly && !isCA:
		return errors.New("CRL covers only CA certificates")
	}
	return nil
}

// sortFacts orders facts by descending ThisUpdate; ties keep their order.
func sortFacts(facts []revocation.Fact) {
	sort.SliceStable(facts, func(i, j int) bool { return facts[i].ThisUpdate.After(facts[j].ThisUpdate) })
}

// ParseOCSP parses an OCSP response as documents embed it: a DER
// OCSPResponse (RFC 6960, section 4.2.1), or a bare BasicOCSPResponse,
// which CAdES and XAdES revocation values (and PAdES DSS dictionaries)
// carry, wrapped first (ocsp.Full): the result's Raw is then the wrapper
// and Basic.Raw the bytes given. The response is not verified.
func ParseOCSP(data []byte) (*ocsp.Response, error) {
	return ocsp.ParseResponse(ocsp.Full(data))
}

func (s *RevocationSource) logSkip(ctx context.Context, level slog.Level, msg string, cert *x509.Certificate, attrs ...slog.Attr) {
	attrs = append(attrs, slog.String("serial", cert.SerialNumber.Text(16)), slog.String("subject", cert.Subject.String()))
	s.logger.LogAttrs(ctx, level, msg, attrs...)
}

// fetchFailed reports and logs a fetch of kind from rawURL that brought
// no answer: refused by the egress guard, or failed.
func (s *RevocationSource) fetchFailed(ctx context.Context, kind, rawURL string, cert *x509.Certificate, err error) {
	outcome := ports.FetchFailed
	if IsBlocked(err) {
		outcome = ports.FetchBlocked
	}
	s.observer.RevocationFetched(kind, outcome)
	source := "OCSP"
	if kind == ports.RevocationCRL {
		source = "CRL"
	}
	s.logFetch(ctx, source, rawURL, cert, err)
}

func (s *RevocationSource) logFetch(ctx context.Context, source, rawURL string, cert *x509.Certificate, err error) {
	s.logger.LogAttrs(ctx, slog.LevelWarn, "revocation fetch failed",
		slog.String("source", source),
		slog.String("url", redact(rawURL)),
		slog.String("reason", err.Error()),
		slog.Bool("blocked", IsBlocked(err)),
		blockReason(err),
		slog.String("serial", cert.SerialNumber.Text(16)),
		slog.String("subject", cert.Subject.String()))
}

// redact drops a password from a URL taken from a certificate before it
// is logged.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Redacted()
}
