package validator

import (
	"bytes"
	"context"
	"crypto"
	"crypto/x509"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/adapters/reportpdf"
	"github.com/svc-dss/dss/adapters/seal"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/domain/svt"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// ErrNoSeal: a Signature Validation Token was asked for, and no report
// seal is configured to sign one.
var ErrNoSeal = errors.New("app: no report seal is configured (svc.dss.validator.report-seal.pkcs12-file, or the PKCS#11 key svc.dss.validator.report-seal.pkcs11-module and pkcs11-key-label), so no Signature Validation Token can be issued")

// tsaTimeout bounds one request to the seal's time-stamping unit.
const tsaTimeout = 30 * time.Second

// openSeal returns the seal cfg configures, nil when it configures none.
func openSeal(ctx context.Context, cfg config.Validator, clock func() time.Time) (ports.ReportSeal, error) {
	rs := cfg.ReportSeal
	if !rs.Configured() {
		return nil, nil
	}
	key, chain, where, err := sealKey(ctx, rs)
	if err != nil {
		return nil, err
	}
	var tsa seal.Timestamper
	if rs.TSAURL != "" {
		client, err := egress.NewClient(egress.Options{ProxyHost: cfg.Egress.ProxyHost, ProxyPort: cfg.Egress.ProxyPort, Timeout: tsaTimeout})
		if err != nil {
			return nil, fmt.Errorf("app: svc.dss.validator.report-seal.tsa-url: %w", err)
		}
		tsa = egress.NewTSA(client, rs.TSAURL)
	}
	s, err := seal.New(key, chain, tsa, clock)
	if err != nil {
		return nil, fmt.Errorf("app: %s: %w", where, err)
	}
	return s, nil
}

// sealKey returns the seal's key and chain, and names the setting they
// come from for errors.
func sealKey(ctx context.Context, rs config.ReportSeal) (crypto.Signer, []*x509.Certificate, string, error) {
	if rs.PKCS12File.Raw != "" {
		where := "svc.dss.validator.report-seal.pkcs12-file (" + rs.PKCS12File.Raw + ")"
		key, chain, err := keystore.ReadKey(rs.PKCS12File.Path, rs.PKCS12Password)
		if err != nil {
			return nil, nil, "", fmt.Errorf("app: %s: %w", where, err)
		}
		return key, chain, where, nil
	}
	chain, err := keystore.ReadCertificateFile(rs.Certificate.Path)
	if err != nil {
		return nil, nil, "", fmt.Errorf("app: svc.dss.validator.report-seal.certificate (%s): %w", rs.Certificate.Raw, err)
	}
	where := fmt.Sprintf("svc.dss.validator.report-seal.pkcs11-key-label (%s in token %s)", rs.PKCS11KeyLabel, rs.PKCS11Token)
	p := ports.Partition{Tenant: "report-seal", Module: rs.PKCS11Module, TokenLabel: rs.PKCS11Token, PIN: rs.PKCS11PIN}
	key, err := pkcs11Signer(ctx, p, ports.KeyRef{Label: rs.PKCS11KeyLabel})
	if err != nil {
		return nil, nil, "", fmt.Errorf("app: %s: %w", where, err)
	}
	return key, chain, where, nil
}

// Sealed reports whether a report seal is configured.
func (v *Validator) Sealed() bool { return v.seal != nil }

// ReportPDF returns the PDF report of sum in lang, its messages in that
// language, sealed when a report seal is configured; unsealed, it says
// so on its first page.
func (v *Validator) ReportPDF(ctx context.Context, sum verdict.ValidationSummary, lang catalog.Lang) ([]byte, error) {
	sum = v.catalog.Summary(lang, sum)
	o := reportpdf.Options{Label: func(id string) (string, bool) { return v.catalog.Template(lang, id) }}
	if v.seal != nil {
		o.SealedBy = v.seal.Subject()
	}
	pdf, err := reportpdf.Render(sum, o)
	if err != nil {
		return nil, fmt.Errorf("app: PDF report: %w", err)
	}
	if v.seal == nil {
		return pdf, nil
	}
	sealed, err := v.seal.PDF(ctx, pdf)
	if err != nil {
		return nil, fmt.Errorf("app: sealing the PDF report: %w", err)
	}
	return sealed, nil
}

// KeptReportPDF is ReportPDF of the verdict a session kept (KeepValidation).
func (v *Validator) KeptReportPDF(ctx context.Context, last *ports.Reports, lang catalog.Lang) ([]byte, error) {
	sum, err := KeptSummary(last)
	if err != nil {
		return nil, err
	}
	return v.ReportPDF(ctx, sum, lang)
}

// KeptSummary is the verdict a session kept (KeepValidation).
func KeptSummary(last *ports.Reports) (verdict.ValidationSummary, error) {
	var sum verdict.ValidationSummary
	if err := gob.NewDecoder(bytes.NewReader(last.Summary)).Decode(&sum); err != nil {
		return verdict.ValidationSummary{}, fmt.Errorf("app: the session's verdict: %w", err)
	}
	return sum, nil
}

// keptSummary encodes sum for a session. gob rather than the API's JSON:
// it keeps what the JSON leaves out, each message's template ID and
// parameters, so that the result page and the PDF report can be worded
// again in another language.
func keptSummary(sum verdict.ValidationSummary) ([]byte, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(sum); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Token returns the Signature Validation Token (RFC 9321) of val: a
// compact JWS by the report seal, issued by the service's base URL. It
// is ErrNoSeal without a seal and wraps svt.ErrNoSignature for a
// document without signatures.
func (v *Validator) Token(_ context.Context, val report.Validation) ([]byte, error) {
	if v.seal == nil {
		return nil, ErrNoSeal
	}
	claims, err := svt.New(svt.Token{ID: randomToken(), Issuer: v.cfg.BaseURL, IssuedAt: v.clock()}, val)
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return nil, fmt.Errorf("app: Signature Validation Token: %w", err)
	}
	jws, err := v.seal.JWS(payload, svt.Type)
	if err != nil {
		return nil, fmt.Errorf("app: Signature Validation Token: %w", err)
	}
	return []byte(jws), nil
}

// logSeal says at start-up how reports go out.
func (v *Validator) logSeal() {
	if v.seal == nil {
		v.logger.Info("report seal: none configured (svc.dss.validator.report-seal.pkcs12-file, or pkcs11-module and pkcs11-key-label); PDF reports are unsealed and say so, no Signature Validation Tokens")
		return
	}
	v.logger.Info("report seal configured", slog.String("subject", v.seal.Subject()), slog.Bool("timestamped", v.cfg.ReportSeal.TSAURL != ""))
}
