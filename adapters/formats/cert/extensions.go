package cert

import (
	"crypto/x509"
	"encoding/asn1"
	"fmt"
	"net"
	"net/url"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// Extension OIDs (RFC 5280, section 4.2).
var (
	oidExtSubjectKeyID     = asn1.ObjectIdentifier{2, 5, 29, 14}
	oidExtKeyUsage         = asn1.ObjectIdentifier{2, 5, 29, 15}
	oidExtSubjectAltName   = asn1.ObjectIdentifier{2, 5, 29, 17}
	oidExtBasicConstraints = asn1.ObjectIdentifier{2, 5, 29, 19}
	oidExtCRLDistPoints    = asn1.ObjectIdentifier{2, 5, 29, 31}
	oidExtPolicies         = asn1.ObjectIdentifier{2, 5, 29, 32}
	oidExtAuthorityKeyID   = asn1.ObjectIdentifier{2, 5, 29, 35}
	oidExtExtKeyUsage      = asn1.ObjectIdentifier{2, 5, 29, 37}
	oidExtAIA              = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 1, 1}

	oidAccessOCSP      = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 48, 1}
	oidAccessCAIssuers = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 48, 2}
)

// extKeyUsages maps the purposes crypto/x509 names.
var extKeyUsages = []struct {
	oid   asn1.ObjectIdentifier
	usage x509.ExtKeyUsage
}{
	{asn1.ObjectIdentifier{2, 5, 29, 37, 0}, x509.ExtKeyUsageAny},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 1}, x509.ExtKeyUsageServerAuth},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 2}, x509.ExtKeyUsageClientAuth},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 3}, x509.ExtKeyUsageCodeSigning},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 4}, x509.ExtKeyUsageEmailProtection},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 5}, x509.ExtKeyUsageIPSECEndSystem},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 6}, x509.ExtKeyUsageIPSECTunnel},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 7}, x509.ExtKeyUsageIPSECUser},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 8}, x509.ExtKeyUsageTimeStamping},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 9}, x509.ExtKeyUsageOCSPSigning},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 311, 10, 3, 3}, x509.ExtKeyUsageMicrosoftServerGatedCrypto},
	{asn1.ObjectIdentifier{2, 16, 840, 1, 113730, 4, 1}, x509.ExtKeyUsageNetscapeServerGatedCrypto},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 311, 2, 1, 22}, x509.ExtKeyUsageMicrosoftCommercialCodeSigning},
	{asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 311, 61, 1, 1}, x509.ExtKeyUsageMicrosoftKernelCodeSigning},
}

// applyNoted applies e to c, notes in rep what cannot be read, and lists e
// in c.UnhandledCriticalExtensions when it is critical and not understood.
func applyNoted(c *x509.Certificate, e extension, rep *Report) {
	known, err := applyExtension(c, e)
	if err != nil {
		rep.addf("%v", err)
	}
	if (!known || err != nil) && e.critical {
		c.UnhandledCriticalExtensions = append(c.UnhandledCriticalExtensions, e.oid)
	}
}

// applyExtension sets the fields of c that e carries, for the extensions
// listed in ParseDetailed. It reports whether it knows e; an error means it
// knows e but cannot read it, and c is unchanged.
func applyExtension(c *x509.Certificate, e extension) (known bool, err error) {
	var apply func(*x509.Certificate, cryptobyte.String) error
	switch {
	case e.oid.Equal(oidExtSubjectKeyID):
		apply = applySubjectKeyID
	case e.oid.Equal(oidExtKeyUsage):
		apply = applyKeyUsage
	case e.oid.Equal(oidExtSubjectAltName):
		apply = applySubjectAltName
	case e.oid.Equal(oidExtBasicConstraints):
		apply = applyBasicConstraints
	case e.oid.Equal(oidExtCRLDistPoints):
		apply = applyCRLDistributionPoints
	case e.oid.Equal(oidExtPolicies):
		apply = applyPolicies
	case e.oid.Equal(oidExtAuthorityKeyID):
		apply = applyAuthorityKeyID
	case e.oid.Equal(oidExtExtKeyUsage):
		apply = applyExtKeyUsage
	case e.oid.Equal(oidExtAIA):
		apply = applyAIA
	default:
		return false, nil
	}
	// Work on a copy so that a half-read extension leaves c as it was.
	tmp := *c
	if err := apply(&tmp, cryptobyte.String(e.value)); err != nil {
		return true, fmt.Errorf("extension %v: %w", e.oid, err)
	}
	*c = tmp
	return true, nil
}

func applySubjectKeyID(c *x509.Certificate, v cryptobyte.String) error {
	var id cryptobyte.String
	if !v.ReadASN1(&id, cbasn1.OCTET_STRING) || !v.Empty() {
		return ErrMalformed
	}
	c.SubjectKeyId = id
	return nil
}

func applyKeyUsage(c *x509.Certificate, v cryptobyte.String) error {
	var content cryptobyte.String
	// Read the BIT STRING by hand: the padding bits DER wants zero and the
	// trailing zero bytes it forbids occur in real certificates.
	if !v.ReadASN1(&content, cbasn1.BIT_STRING) || !v.Empty() || len(content) == 0 || content[0] > 7 {
		return ErrMalformed
	}
	var usage int
	for i, b := range content[1:] {
		for bit := 0; bit < 8; bit++ {
			if b&(0x80>>bit) != 0 && i*8+bit < 16 {
				usage |= 1 << (i*8 + bit)
			}
		}
	}
	c.KeyUsage = x509.KeyUsage(usage)
	return nil
}

func applyBasicConstraints(c *x509.Certificate, v cryptobyte.String) error {
	var seq cryptobyte.String
	if !v.ReadASN1(&seq, cbasn1.SEQUENCE) || !v.Empty() {
		return ErrMalformed
	}
	isCA := false
	if seq.PeekASN1Tag(cbasn1.BOOLEAN) {
		var b cryptobyte.String
		if !seq.ReadASN1(&b, cbasn1.BOOLEAN) || len(b) != 1 {
			return ErrMalformed
		}
		isCA = b[0] != 0
	}
	maxPathLen := -1
	if seq.PeekASN1Tag(cbasn1.INTEGER) {
		var n int64
		if !seq.ReadASN1Int64WithTag(&n, cbasn1.INTEGER) || n < 0 || n > 1<<20 {
			return ErrMalformed
		}
		maxPathLen = int(n)
	}
	if !seq.Empty() {
		return ErrMalformed
	}
	c.BasicConstraintsValid = true
	c.IsCA = isCA
	c.MaxPathLen = maxPathLen
	c.MaxPathLenZero = maxPathLen == 0
	return nil
}

func applyAuthorityKeyID(c *x509.Certificate, v cryptobyte.String) error {
	var seq, id cryptobyte.String
	var present bool
	if !v.ReadASN1(&seq, cbasn1.SEQUENCE) || !v.Empty() ||
		!seq.ReadOptionalASN1(&id, &present, cbasn1.Tag(0).ContextSpecific()) {
		return ErrMalformed
	}
	// authorityCertIssuer [1] and authorityCertSerialNumber [2] are not
	// kept: crypto/x509 has no field for them either.
	if present {
		c.AuthorityKeyId = id
	}
	return nil
}

func applyExtKeyUsage(c *x509.Certificate, v cryptobyte.String) error {
	var seq cryptobyte.String
	if !v.ReadASN1(&seq, cbasn1.SEQUENCE) || !v.Empty() {
		return ErrMalformed
	}
	c.ExtKeyUsage, c.UnknownExtKeyUsage = nil, nil
	for n := 0; !seq.Empty(); n++ {
		if n == MaxExtKeyUsages {
			return fmt.Errorf("%w: more than %d extended key usages", ErrLimitExceeded, MaxExtKeyUsages)
		}
		var oid asn1.ObjectIdentifier
		if !seq.ReadASN1ObjectIdentifier(&oid) {
			return ErrMalformed
		}
		known := false
		for _, u := range extKeyUsages {
			if u.oid.Equal(oid) {
				c.ExtKeyUsage = append(c.ExtKeyUsage, u.usage)
				known = true
				break
			}
		}
		if !known {
			c.UnknownExtKeyUsage = append(c.UnknownExtKeyUsage, oid)
		}
	}
	return nil
}

func applyAIA(c *x509.Certificate, v cryptobyte.String) error {
	var seq cryptobyte.String
	if !v.ReadASN1(&seq, cbasn1.SEQUENCE) || !v.Empty() {
		return ErrMalformed
	}
	c.OCSPServer, c.IssuingCertificateURL = nil, nil
	for n := 0; !seq.Empty(); n++ {
		if n == MaxAccessDescriptions {
			return fmt.Errorf("%w: more than %d access descriptions", ErrLimitExceeded, MaxAccessDescriptions)
		}
		var ad cryptobyte.String
		var method asn1.ObjectIdentifier
		if !seq.ReadASN1(&ad, cbasn1.SEQUENCE) || !ad.ReadASN1ObjectIdentifier(&method) {
			return ErrMalformed
		}
		var uri cryptobyte.String
		if !ad.ReadASN1(&uri, cbasn1.Tag(6).ContextSpecific()) {
			continue // a location other than a URI (directoryName, ...)
		}
		switch {
		case method.Equal(oidAccessOCSP):
			c.OCSPServer = append(c.OCSPServer, string(uri))
		case method.Equal(oidAccessCAIssuers):
			c.IssuingCertificateURL = append(c.IssuingCertificateURL, string(uri))
		}
	}
	return nil
}

func applyCRLDistributionPoints(c *x509.Certificate, v cryptobyte.String) error {
	var seq cryptobyte.String
	if !v.ReadASN1(&seq, cbasn1.SEQUENCE) || !v.Empty() {
		return ErrMalformed
	}
	c.CRLDistributionPoints = nil
	for n := 0; !seq.Empty(); n++ {
		if n == MaxDistributionPoints {
			return fmt.Errorf("%w: more than %d distribution points", ErrLimitExceeded, MaxDistributionPoints)
		}
		var dp, name, fullName cryptobyte.String
		var present bool
		if !seq.ReadASN1(&dp, cbasn1.SEQUENCE) ||
			!dp.ReadOptionalASN1(&name, &present, cbasn1.Tag(0).ContextSpecific().Constructed()) {
			return ErrMalformed
		}
		if !present || !name.ReadASN1(&fullName, cbasn1.Tag(0).ContextSpecific().Constructed()) {
			continue // nameRelativeToCRLIssuer or only a cRLIssuer
		}
		err := forEachGeneralName(fullName, func(tag cbasn1.Tag, value []byte) error {
			if tag == cbasn1.Tag(6).ContextSpecific() {
				c.CRLDistributionPoints = append(c.CRLDistributionPoints, string(value))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// applyPolicies reads the certificate-policies extension. A policy listed
// twice, which RFC 5280 forbids and crypto/x509 refuses, is kept once.
func applyPolicies(c *x509.Certificate, v cryptobyte.String) error {
	oids, _, err := readPolicyOIDs(v)
	if err != nil {
		return err
	}
	c.Policies, c.PolicyIdentifiers = nil, nil
	for _, raw := range oids {
		var oid x509.OID
		if err := oid.UnmarshalBinary(raw); err != nil {
			return ErrMalformed
		}
		c.Policies = append(c.Policies, oid)
		// PolicyIdentifiers holds the policies whose arcs fit an int, as
		// crypto/x509 does.
		var b cryptobyte.Builder
		b.AddASN1(cbasn1.OBJECT_IDENTIFIER, func(b *cryptobyte.Builder) { b.AddBytes(raw) })
		elem := cryptobyte.String(b.BytesOrPanic())
		var id asn1.ObjectIdentifier
		if elem.ReadASN1ObjectIdentifier(&id) {
			c.PolicyIdentifiers = append(c.PolicyIdentifiers, id)
		}
	}
	return nil
}

// readPolicyOIDs returns the distinct policy OIDs (content octets) of a
// certificate-policies value, with the PolicyInformation elements that
// carry them, first occurrences only, and reports duplicates.
func readPolicyOIDs(v cryptobyte.String) (oids [][]byte, infos [][]byte, err error) {
	var seq cryptobyte.String
	if !v.ReadASN1(&seq, cbasn1.SEQUENCE) || !v.Empty() {
		return nil, nil, ErrMalformed
	}
	seen := map[string]bool{}
	for n := 0; !seq.Empty(); n++ {
		if n == MaxPolicies {
			return nil, nil, fmt.Errorf("%w: more than %d policies", ErrLimitExceeded, MaxPolicies)
		}
		var info, body, oid cryptobyte.String
		if !seq.ReadASN1Element(&info, cbasn1.SEQUENCE) {
			return nil, nil, ErrMalformed
		}
		body = info
		if !body.ReadASN1(&body, cbasn1.SEQUENCE) || !body.ReadASN1(&oid, cbasn1.OBJECT_IDENTIFIER) {
			return nil, nil, ErrMalformed
		}
		if seen[string(oid)] {
			continue
		}
		seen[string(oid)] = true
		oids = append(oids, oid)
		infos = append(infos, info)
	}
	return oids, infos, nil
}

func applySubjectAltName(c *x509.Certificate, v cryptobyte.String) error {
	var seq cryptobyte.String
	if !v.ReadASN1(&seq, cbasn1.SEQUENCE) || !v.Empty() {
		return ErrMalformed
	}
	c.DNSNames, c.EmailAddresses, c.IPAddresses, c.URIs = nil, nil, nil, nil
	// Values are kept as written: lenient reading does not validate them.
	return forEachGeneralName(seq, func(tag cbasn1.Tag, value []byte) error {
		switch tag {
		case cbasn1.Tag(1).ContextSpecific():
			c.EmailAddresses = append(c.EmailAddresses, string(value))
		case cbasn1.Tag(2).ContextSpecific():
			c.DNSNames = append(c.DNSNames, string(value))
		case cbasn1.Tag(6).ContextSpecific():
			if u, err := url.Parse(string(value)); err == nil {
				c.URIs = append(c.URIs, u)
			}
		case cbasn1.Tag(7).ContextSpecific():
			if len(value) == net.IPv4len || len(value) == net.IPv6len {
				c.IPAddresses = append(c.IPAddresses, net.IP(value))
			}
		}
		return nil
	})
}

// forEachGeneralName calls f with the tag and content of each GeneralName
// in the content of a GeneralNames SEQUENCE.
func forEachGeneralName(names cryptobyte.String, f func(tag cbasn1.Tag, value []byte) error) error {
	for n := 0; !names.Empty(); n++ {
		if n == MaxGeneralNames {
			return fmt.Errorf("%w: more than %d general names", ErrLimitExceeded, MaxGeneralNames)
		}
		var value cryptobyte.String
		var tag cbasn1.Tag
		if !names.ReadAnyASN1(&value, &tag) {
			return ErrMalformed
		}
		if err := f(tag, value); err != nil {
			return err
		}
	}
	return nil
}
