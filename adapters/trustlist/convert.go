package trustlist

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/trust"
)

// converter turns the decoded structs into domain values and collects the
// notices of what the domain cannot hold.
type converter struct {
	notices []Notice
}

func (c *converter) notice(kind NoticeKind, path, detail string) {
	c.notices = append(c.notices, Notice{Kind: kind, Path: path, Detail: detail})
}

// where locates a provider, service or history entry for paths in errors
// and notices; the string is only built when one is needed.
type where struct {
	provider, service, history int // -1 when outside one
}

var schemeLevel = where{-1, -1, -1}

func (w where) path(elem string) string {
	var b strings.Builder
	if w.provider < 0 {
		b.WriteString("SchemeInformation")
	} else {
		fmt.Fprintf(&b, "TrustServiceProvider[%d]", w.provider)
	}
	if w.service >= 0 {
		fmt.Fprintf(&b, "/TSPService[%d]", w.service)
	}
	if w.history >= 0 {
		fmt.Fprintf(&b, "/ServiceHistoryInstance[%d]", w.history)
	}
	if elem != "" {
		b.WriteByte('/')
		b.WriteString(elem)
	}
	return b.String()
}

func valueError(path string, err error) error {
	return &ParseError{Path: path, Err: err}
}

func (c *converter) list(r *rawList) (trust.List, error) {
	s := &r.Scheme
	var l trust.List
	var err error
	if l.Version, err = parseInt(s.Version); err != nil {
		return trust.List{}, valueError("SchemeInformation/TSLVersionIdentifier", err)
	}
	if l.SequenceNumber, err = parseInt(s.Sequence); err != nil {
		return trust.List{}, valueError("SchemeInformation/TSLSequenceNumber", err)
	}
	l.TypeURI = strings.TrimSpace(s.Type)
	l.Territory = strings.TrimSpace(s.Territory)
	if l.IssueDate, err = parseDateTime(s.IssueDate); err != nil {
		return trust.List{}, valueError("SchemeInformation/ListIssueDateTime", err)
	}
	// An absent NextUpdate and one without dateTime both leave the zero
	// time: TS 119 612 §5.3.15 uses the empty element for a closed list,
	// and the domain reads zero as "no next update".
	if s.NextUpdate != nil {
		if l.NextUpdate, err = parseDateTime(s.NextUpdate.DateTime); err != nil {
			return trust.List{}, valueError("SchemeInformation/NextUpdate/dateTime", err)
		}
	}
	l.SchemeOperator = pickName(s.Operator)
	l.SchemeInformationURIs = nonEmpty(s.InfoURIs)

	if len(s.Pointers) > 0 {
		l.Pointers = make([]trust.Pointer, 0, len(s.Pointers))
	}
	for i := range s.Pointers {
		p, err := c.pointer(i, &s.Pointers[i])
		if err != nil {
			return trust.List{}, valueError(fmt.Sprintf("SchemeInformation/PointersToOtherTSL/OtherTSLPointer[%d]/%s", i, err.path), err.err)
		}
		l.Pointers = append(l.Pointers, p)
	}
	c.otherExtensions(schemeLevel, "SchemeExtensions", s.Extensions)

	if len(r.Providers) > 0 {
		l.Providers = make([]trust.Provider, 0, len(r.Providers))
	}
	for i := range r.Providers {
		p, err := c.provider(i, &r.Providers[i])
		if err != nil {
			return trust.List{}, err
		}
		l.Providers = append(l.Providers, p)
	}
	l.Kind = kindOf(l.TypeURI, len(l.Pointers), len(l.Providers))
	return l, nil
}

// kindOf tells a LOTL from a TL. TSLType decides when it is one of the
// TS 119 612 §5.3.3 forms (EUlistofthelists and CClistofthelists for a
// LOTL; EUgeneric, CClist, and the TSL v3 "generic" for a TL); only a list
// without a recognisable type is judged by its content: pointers and no
// providers make a LOTL. A TL that lists no provider still points back to
// its LOTL, so content alone must not override a declared type.
func kindOf(typeURI string, pointers, providers int) trust.Kind {
	t := strings.ToLower(typeURI)
	switch {
	case strings.HasSuffix(t, "listofthelists"):
		return trust.LOTL
	case strings.HasSuffix(t, "generic"), strings.HasSuffix(t, "list"):
		return trust.TL
	case pointers > 0 && providers == 0:
		return trust.LOTL
	}
	return trust.TL
}

// fieldError is a value error inside a pointer or identity, before its
// full path is known.
type fieldError struct {
	path string
	err  error
}

func (e *fieldError) Error() string { return e.path + ": " + e.err.Error() }

// pointer converts the i-th OtherTSLPointer. Its MRA information never
// fails the list: what cannot be used becomes a notice (mra.go).
func (c *converter) pointer(i int, r *rawPointer) (trust.Pointer, *fieldError) {
	p := trust.Pointer{Location: strings.TrimSpace(r.Location)}
	// Each OtherInformation carries one item; the first of each kind wins.
	for j := range r.Other {
		o := &r.Other[j]
		if p.TypeURI == "" {
			p.TypeURI = strings.TrimSpace(o.Type)
		}
		if p.Territory == "" {
			p.Territory = strings.TrimSpace(o.Territory)
		}
		if p.MimeType == "" {
			p.MimeType = strings.TrimSpace(o.MimeType)
		}
		if o.MRA != nil {
			path := fmt.Sprintf("SchemeInformation/PointersToOtherTSL/OtherTSLPointer[%d]/AdditionalInformation/OtherInformation[%d]/MutualRecognitionAgreementInformation", i, j)
			if p.MRA == nil {
				p.MRA = c.mra(path, o.MRA)
			} else {
				c.notice(NoticeMRANotRepresented, path, "a second MutualRecognitionAgreementInformation: the first is kept")
			}
		}
	}
	for i := range r.Identities {
		for j := range r.Identities[i].IDs {
			v := r.Identities[i].IDs[j].Certificate
			if isBlank(v) {
				continue
			}
			der, err := decodeBase64(v)
			if err != nil {
				return trust.Pointer{}, &fieldError{
					path: fmt.Sprintf("ServiceDigitalIdentities/ServiceDigitalIdentity[%d]/DigitalId[%d]/X509Certificate", i, j),
					err:  err,
				}
			}
			p.SignerCertificates = append(p.SignerCertificates, der)
		}
	}
	return p, nil
}

func (c *converter) provider(i int, r *rawProvider) (trust.Provider, error) {
	w := where{i, -1, -1}
	p := trust.Provider{
		Name:      pickName(r.Names),
		TradeName: names(r.TradeNames),
	}
	c.otherExtensions(w, "TSPInformation/TSPInformationExtensions", r.Extensions)
	if len(r.Services) > 0 {
		p.Services = make([]trust.Service, 0, len(r.Services))
	}
	for j := range r.Services {
		s, err := c.service(where{i, j, -1}, &r.Services[j])
		if err != nil {
			return trust.Provider{}, err
		}
		p.Services = append(p.Services, s)
	}
	return p, nil
}

func (c *converter) service(w where, r *rawService) (trust.Service, error) {
	info := &r.Info
	var s trust.Service
	var err error
	s.TypeURI = strings.TrimSpace(info.Type)
	s.Type = ServiceTypeOf(s.TypeURI)
	s.Name = pickName(info.Names)
	s.StatusURI = strings.TrimSpace(info.Status)
	s.Status = StatusOf(s.StatusURI)
	if s.StatusStart, err = parseDateTime(info.Start); err != nil {
		return trust.Service{}, valueError(w.path("ServiceInformation/StatusStartingTime"), err)
	}
	if s.Identity, err = identity(w, "ServiceInformation", &info.Identity); err != nil {
		return trust.Service{}, err
	}
	ext, err := c.serviceExtensions(w, "ServiceInformation", info.Extensions)
	if err != nil {
		return trust.Service{}, err
	}
	s.Qualifications = ext.qualifications
	s.AdditionalInfo = ext.additionalInfo
	s.ExpiredCertsRevocationInfo = ext.expiredCerts

	if len(r.History) > 0 {
		s.History = make([]trust.StatusPeriod, 0, len(r.History))
	}
	for k := range r.History {
		h, err := c.history(where{w.provider, w.service, k}, &r.History[k])
		if err != nil {
			return trust.Service{}, err
		}
		s.History = append(s.History, h)
	}
	return s, nil
}

// history converts one ServiceHistoryInstance. ExpiredCertsRevocationInfo
// in a history entry has no place in [trust.StatusPeriod] and is dropped.
func (c *converter) history(w where, r *rawServiceInfo) (trust.StatusPeriod, error) {
	var h trust.StatusPeriod
	var err error
	h.TypeURI = strings.TrimSpace(r.Type)
	h.Type = ServiceTypeOf(h.TypeURI)
	h.StatusURI = strings.TrimSpace(r.Status)
	h.Status = StatusOf(h.StatusURI)
	if h.Start, err = parseDateTime(r.Start); err != nil {
		return trust.StatusPeriod{}, valueError(w.path("StatusStartingTime"), err)
	}
	if h.Identity, err = identity(w, "", &r.Identity); err != nil {
		return trust.StatusPeriod{}, err
	}
	ext, err := c.serviceExtensions(w, "", r.Extensions)
	if err != nil {
		return trust.StatusPeriod{}, err
	}
	h.Qualifications = ext.qualifications
	h.AdditionalInfo = ext.additionalInfo
	return h, nil
}

func identity(w where, prefix string, r *rawIdentity) (trust.Identity, error) {
	var id trust.Identity
	for i := range r.IDs {
		d := &r.IDs[i]
		if !isBlank(d.Certificate) {
			der, err := decodeBase64(d.Certificate)
			if err != nil {
				return trust.Identity{}, valueError(w.path(join(prefix, fmt.Sprintf("ServiceDigitalIdentity/DigitalId[%d]/X509Certificate", i))), err)
			}
			id.Certificates = append(id.Certificates, der)
		}
		if name := strings.TrimSpace(d.SubjectName); name != "" {
			id.SubjectNames = append(id.SubjectNames, name)
		}
		if !isBlank(d.SKI) {
			ski, err := decodeBase64(d.SKI)
			if err != nil {
				return trust.Identity{}, valueError(w.path(join(prefix, fmt.Sprintf("ServiceDigitalIdentity/DigitalId[%d]/X509SKI", i))), err)
			}
			id.SKIs = append(id.SKIs, ski)
		}
	}
	return id, nil
}

type serviceExt struct {
	qualifications []trust.Qualification
	additionalInfo []string
	expiredCerts   time.Time
}

// serviceExtensions reads the service information extensions this package
// understands: Qualifications (SIE schema), AdditionalServiceInformation
// and ExpiredCertsRevocationInfo. TakenOverBy is understood but has no
// domain field; it is informative (TS 119 612 §5.5.9.3), so it is skipped
// without a notice even when marked critical, as most lists mark it.
func (c *converter) serviceExtensions(w where, prefix string, exts []rawExtension) (serviceExt, error) {
	var out serviceExt
	for i := range exts {
		e := &exts[i]
		critical := isTrue(e.Critical)
		extPath := func() string {
			return w.path(join(prefix, fmt.Sprintf("ServiceInformationExtensions/Extension[%d]", i)))
		}
		if e.Qualifications != nil {
			for j := range e.Qualifications.Elements {
				q, lost := qualification(&e.Qualifications.Elements[j], critical)
				out.qualifications = append(out.qualifications, q)
				if len(lost) > 0 {
					c.notice(NoticeCriteriaNotRepresented,
						fmt.Sprintf("%s/Qualifications/QualificationElement[%d]", extPath(), j),
						strings.Join(lost, "; "))
				}
			}
		}
		for _, a := range e.AdditionalInfo {
			if u := strings.TrimSpace(a.URI); u != "" {
				out.additionalInfo = append(out.additionalInfo, u)
			}
		}
		if e.ExpiredCerts != nil && out.expiredCerts.IsZero() {
			t, err := parseDateTime(*e.ExpiredCerts)
			if err != nil {
				return serviceExt{}, valueError(extPath()+"/ExpiredCertsRevocationInfo", err)
			}
			out.expiredCerts = t
		}
		if critical {
			c.unknownCritical(extPath(), e.Unknown)
		}
	}
	return out, nil
}

// otherExtensions handles scheme and TSP extensions, where TS 119 612
// defines no content this package uses: anything critical is unknown.
func (c *converter) otherExtensions(w where, prefix string, exts []rawExtension) {
	for i := range exts {
		e := &exts[i]
		if !isTrue(e.Critical) {
			continue
		}
		path := w.path(fmt.Sprintf("%s/Extension[%d]", prefix, i))
		c.unknownCritical(path, e.Unknown)
		if e.Qualifications != nil || len(e.AdditionalInfo) > 0 || e.ExpiredCerts != nil || e.TakenOverBy != nil {
			c.notice(NoticeUnknownCriticalExtension, path, "service extension used outside a service")
		}
	}
}

func (c *converter) unknownCritical(path string, unknown []rawAny) {
	for _, u := range unknown {
		c.notice(NoticeUnknownCriticalExtension, path, fmt.Sprintf("{%s}%s", clip(u.XMLName.Space), clip(u.XMLName.Local)))
	}
}

func join(prefix, elem string) string {
	if prefix == "" {
		return elem
	}
	return prefix + "/" + elem
}

// pickName returns the English name if there is one (xml:lang "en", then
// "en-*"), else the first, as the domain wants one name per entity.
func pickName(ns []rawName) string {
	first, region := "", ""
	for _, n := range ns {
		v := strings.TrimSpace(n.Value)
		if v == "" {
			continue
		}
		lang := strings.TrimSpace(n.Lang)
		switch {
		case strings.EqualFold(lang, "en"):
			return v
		case region == "" && len(lang) > 3 && strings.EqualFold(lang[:3], "en-"):
			region = v
		case first == "":
			first = v
		}
	}
	if region != "" {
		return region
	}
	return first
}

func names(ns []rawName) []string {
	var out []string
	for _, n := range ns {
		if v := strings.TrimSpace(n.Value); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func nonEmpty(vs []string) []string {
	var out []string
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func parseInt(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("malformed integer %q", clip(s))
	}
	return n, nil
}

// parseDateTime reads an xsd:dateTime. An empty value is the zero time
// (the element is optional or absent). A value without a zone offset is
// taken as UTC, the only reading that does not depend on this machine.
// Results are in UTC so that values compare with ==.
func parseDateTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	// RFC 3339 parsing also accepts fractional seconds.
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse("2006-01-02T15:04:05", s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("malformed xsd:dateTime %q", clip(s))
}

func isTrue(s string) bool {
	s = strings.TrimSpace(s)
	return s == "true" || s == "1"
}

func isBlank(s string) bool {
	return strings.TrimSpace(s) == ""
}

var errBase64 = errors.New("malformed base64")

// decodeBase64 decodes xsd:base64Binary, which may be folded over lines
// and indented: the standard decoder skips CR and LF itself, so only
// spaces and tabs need removing first.
func decodeBase64(s string) ([]byte, error) {
	if strings.ContainsAny(s, " \t") {
		s = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, s)
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(out, []byte(s))
	if err != nil {
		return nil, errBase64
	}
	return out[:n:n], nil
}
