package xades

import (
	"crypto"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/domain/ades"
)

// qualifying is where a signature's XAdES properties sit.
type qualifying struct {
	// props is the xades:QualifyingProperties of the signature (a child
	// of one of its ds:Object elements); nil for a plain XMLDSig
	// signature.
	props *etree.Element
	// signedCandidate is props' SignedProperties, before any reference
	// says it is signed.
	signedCandidate *etree.Element
	// unsigned is props' UnsignedProperties/UnsignedSignatureProperties;
	// nil when absent.
	unsigned *etree.Element
	problems []ades.Problem
}

// findQualifying locates the QualifyingProperties of sig, a ds:Signature:
// XAdES puts it in a ds:Object of the signature (EN 319 132-1 4.3.1). More
// than one is a format failure: which one the signature stands for would
// be the reader's guess.
func findQualifying(sig *etree.Element) qualifying {
	var q qualifying
	var found []*etree.Element
	for _, obj := range childrenOf(sig, func(c *etree.Element) bool { return isDS(c, "Object") }) {
		found = append(found, childrenOf(obj, func(c *etree.Element) bool { return isXAdES(c, "QualifyingProperties") })...)
	}
	switch {
	case len(found) == 0:
		return q
	case len(found) > 1:
		q.problems = append(q.problems, ades.Problem{Code: CodeQualifyingProperties, FormatFailure: true,
			Message: fmt.Sprintf("%d xades:QualifyingProperties in one signature (EN 319 132-1 4.3.1 allows one)", len(found))})
	}
	q.props = found[0]
	if id := attr(sig, "Id"); id != "" {
		if t := attr(q.props, "Target"); t != "#"+id {
			q.problems = append(q.problems, ades.Problem{Code: CodeQualifyingProperties,
				Message: fmt.Sprintf("xades:QualifyingProperties Target %q does not name the signature %q", t, id)})
		}
	}
	sps := childrenOf(q.props, func(c *etree.Element) bool { return isXAdES(c, "SignedProperties") })
	if len(sps) > 1 {
		q.problems = append(q.problems, ades.Problem{Code: CodeQualifyingProperties, FormatFailure: true,
			Message: "more than one xades:SignedProperties"})
	}
	if len(sps) > 0 {
		q.signedCandidate = sps[0]
	}
	q.unsigned = xadesChild(xadesChild(q.props, "UnsignedProperties"), "UnsignedSignatureProperties")
	return q
}

// signedProps is what a signed xades:SignedProperties says.
type signedProps struct {
	signingTime    time.Time
	hasSigningTime bool
	// certRefs are the Cert elements of SigningCertificateV2 (or, when it
	// is absent, SigningCertificate); refElements counts those
	// properties.
	certRefs    []certRef
	refElements int
	policyID    string
	commitments []string
	// contentTS are the AllDataObjectsTimeStamp and
	// IndividualDataObjectsTimeStamp elements, in document order.
	contentTS []*etree.Element
	problems  []ades.Problem
}

func (p *signedProps) problem(code, format string, args ...any) {
	p.problems = append(p.problems, ades.Problem{Code: code, Message: fmt.Sprintf(format, args...)})
}

// readSigned reads sp, a SignedProperties that the signature covers.
func readSigned(sp *etree.Element) signedProps {
	var p signedProps
	ssp := xadesChild(sp, "SignedSignatureProperties")
	var v1, v2 []*etree.Element
	for _, c := range kids(ssp) {
		switch {
		case isXAdES(c, "SigningTime"):
			t, err := parseDateTime(c.Text())
			if err != nil {
				p.problem(CodeMalformedProperty, "xades:SigningTime: %v", err)
				continue
			}
			if p.hasSigningTime {
				p.problem(CodeMalformedProperty, "more than one xades:SigningTime; the first is used")
				continue
			}
			p.signingTime, p.hasSigningTime = t, true
		case isXAdES(c, "SigningCertificateV2"):
			v2 = append(v2, c)
		case isXAdES(c, "SigningCertificate"):
			v1 = append(v1, c)
		case isXAdES(c, "SignaturePolicyIdentifier"):
			p.policyID = policyID(c)
		}
	}
	p.refElements = len(v1) + len(v2)
	if p.refElements > 1 {
		p.problem(CodeMultipleSigningCertRefs, "%d signing-certificate properties; the first SigningCertificateV2 (else SigningCertificate) is used", p.refElements)
	}
	switch {
	case len(v2) > 0:
		p.certRefs = p.readCertRefs(v2[0], true)
	case len(v1) > 0:
		p.certRefs = p.readCertRefs(v1[0], false)
	}

	sdop := xadesChild(sp, "SignedDataObjectProperties")
	for _, c := range kids(sdop) {
		switch {
		case isXAdES(c, "CommitmentTypeIndication"):
			if id := text(xadesChild(xadesChild(c, "CommitmentTypeId"), "Identifier")); id != "" && len(p.commitments) < MaxPropertyItems {
				p.commitments = append(p.commitments, oidFromURN(id))
			}
		case isXAdES(c, "AllDataObjectsTimeStamp"), isXAdES(c, "IndividualDataObjectsTimeStamp"):
			p.contentTS = append(p.contentTS, c)
		}
	}
	return p
}

// policyID returns the identifier of an explicit signature policy; empty
// for SignaturePolicyImplied.
func policyID(spi *etree.Element) string {
	id := xadesChild(xadesChild(xadesChild(spi, "SignaturePolicyId"), "SigPolicyId"), "Identifier")
	return oidFromURN(text(id))
}

// oidFromURN turns an ObjectIdentifier written as a URN (XAdES 1.3.2
// 7.1.2: Qualifier OIDAsURN, "urn:oid:1.2.3") into the dotted OID; other
// identifiers (URIs) are returned as they are.
func oidFromURN(s string) string {
	if rest, ok := strings.CutPrefix(strings.ToLower(s), "urn:oid:"); ok {
		return rest
	}
	return s
}

// certRef is one xades:Cert of a signing-certificate property.
type certRef struct {
	hash   crypto.Hash // 0 when the digest method is unknown
	digest []byte
	// issuer is the IssuerSerialV2 directoryName, DER; issuerName the
	// IssuerSerial X509IssuerName, an RFC 4514 string. serial is nil when
	// the Cert has no issuer and serial.
	issuer     []byte
	issuerName string
	serial     *big.Int
}

// readCertRefs reads the Cert elements of a SigningCertificate (v2
// false) or SigningCertificateV2.
func (p *signedProps) readCertRefs(prop *etree.Element, v2 bool) []certRef {
	var out []certRef
	for i, c := range childrenOf(prop, func(c *etree.Element) bool { return isXAdES(c, "Cert") }) {
		if i == MaxPropertyItems {
			p.problem(CodeLimitExceeded, "more than %d Cert elements in a signing-certificate property", MaxPropertyItems)
			break
		}
		var r certRef
		cd := xadesChild(c, "CertDigest")
		r.hash = digestHash(algorithm(cd, "DigestMethod"))
		d, err := decodeBase64(text(dsChild(cd, "DigestValue")))
		if err != nil {
			p.problem(CodeMalformedProperty, "signing-certificate CertDigest: %v", err)
		}
		r.digest = d
		if v2 {
			if is := xadesChild(c, "IssuerSerialV2"); is != nil {
				der, err := decodeBase64(text(is))
				if err == nil {
					r.issuer, r.serial, err = parseIssuerSerial(der)
				}
				if err != nil {
					p.problem(CodeMalformedProperty, "IssuerSerialV2: %v", err)
				}
			}
		} else if is := xadesChild(c, "IssuerSerial"); is != nil {
			r.issuerName = text(dsChild(is, "X509IssuerName"))
			n, ok := new(big.Int).SetString(text(dsChild(is, "X509SerialNumber")), 10)
			if !ok {
				p.problem(CodeMalformedProperty, "IssuerSerial: X509SerialNumber is not an integer")
			} else {
				r.serial = n
			}
		}
		out = append(out, r)
	}
	return out
}

// digestHash maps an XMLDSig digest URI to its hash; 0 when unknown.
func digestHash(uri string) crypto.Hash {
	switch uri {
	case xmldsig.DigestSHA1:
		return crypto.SHA1
	case xmldsig.DigestSHA224:
		return crypto.SHA224
	case xmldsig.DigestSHA256:
		return crypto.SHA256
	case xmldsig.DigestSHA384:
		return crypto.SHA384
	case xmldsig.DigestSHA512:
		return crypto.SHA512
	case xmldsig.DigestSHA3_224:
		return crypto.SHA3_224
	case xmldsig.DigestSHA3_256:
		return crypto.SHA3_256
	case xmldsig.DigestSHA3_384:
		return crypto.SHA3_384
	case xmldsig.DigestSHA3_512:
		return crypto.SHA3_512
	}
	return 0
}
