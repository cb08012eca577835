package xades

import (
	"github.com/beevik/etree"

	"github.com/svc-dss/dss/domain/ades"
)

// tsKind is what a time-stamp property covers, which says how its input
// is computed.
type tsKind uint8

const (
	_ tsKind = iota
	kindAllDataObjects
	kindIndividualDataObjects
	kindSignature
	kindSigAndRefs
	kindSigAndRefsV2
	kindRefsOnly
	kindRefsOnlyV2
	kindArchive132
	kindArchive141
)

func (k tsKind) timestampType() ades.TimestampType {
	switch k {
	case kindAllDataObjects, kindIndividualDataObjects:
		return ades.ContentTimestamp
	case kindSignature:
		return ades.SignatureTimestamp
	case kindSigAndRefs, kindSigAndRefsV2, kindRefsOnly, kindRefsOnlyV2:
		return ades.ValidationDataTimestamp
	}
	return ades.ArchiveTimestamp
}

// tsItem is one time-stamp property of a signature.
type tsItem struct {
	el   *etree.Element
	kind tsKind
}

// unsignedProps is what a signature's UnsignedSignatureProperties hold,
// in document order.
type unsignedProps struct {
	timestamps []tsItem
	// counters are the ds:Signature elements of the CounterSignature
	// properties.
	counters []*etree.Element
	// values: CertificateValues or RevocationValues with content; refs:
	// CompleteCertificateRefs(V2) or CompleteRevocationRefs.
	values, refs bool
}

// readUnsigned reads usp (nil when absent), adding its validation data to
// vd: CertificateValues, RevocationValues and TimeStampValidationData
// (whose data serves the time-stamps, and so the signature's validation).
func readUnsigned(usp *etree.Element, vd *validationData) unsignedProps {
	var u unsignedProps
	if usp == nil {
		return u
	}
	v141 := func(c *etree.Element) bool { ns, _ := xadesNS(c); return ns == nsXAdES141 }
	for _, c := range usp.ChildElements() {
		if _, ok := xadesNS(c); !ok {
			continue
		}
		switch c.Tag {
		case "SignatureTimeStamp":
			u.timestamps = append(u.timestamps, tsItem{c, kindSignature})
		case "SigAndRefsTimeStamp":
			u.timestamps = append(u.timestamps, tsItem{c, kindSigAndRefs})
		case "SigAndRefsTimeStampV2":
			u.timestamps = append(u.timestamps, tsItem{c, kindSigAndRefsV2})
		case "RefsOnlyTimeStamp":
			u.timestamps = append(u.timestamps, tsItem{c, kindRefsOnly})
		case "RefsOnlyTimeStampV2":
			u.timestamps = append(u.timestamps, tsItem{c, kindRefsOnlyV2})
		case "ArchiveTimeStamp":
			k := kindArchive132
			if v141(c) {
				k = kindArchive141
			}
			u.timestamps = append(u.timestamps, tsItem{c, k})
		case "CertificateValues":
			if vd.addCertificateValues(c) > 0 {
				u.values = true
			}
		case "RevocationValues":
			if vd.addRevocationValues(c) > 0 {
				u.values = true
			}
		case "TimeStampValidationData":
			if cv := xadesChild(c, "CertificateValues"); cv != nil {
				vd.addCertificateValues(cv)
			}
			if rv := xadesChild(c, "RevocationValues"); rv != nil {
				vd.addRevocationValues(rv)
			}
		case "CompleteCertificateRefs", "CompleteCertificateRefsV2", "CompleteRevocationRefs":
			u.refs = true
		case "CounterSignature":
			for _, s := range c.ChildElements() {
				if isDS(s, "Signature") {
					u.counters = append(u.counters, s)
				}
			}
		}
	}
	return u
}
