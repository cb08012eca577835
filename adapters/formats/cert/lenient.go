package cert

import "crypto/x509"

// lenient fills a certificate from rc by this package's own reading; see
// ParseDetailed for the fields. Whatever cannot be read is noted in rep and
// left empty.
func lenient(rc *rawCertificate, rep *Report) *x509.Certificate {
	t := &rc.tbs
	c := &x509.Certificate{
		Raw:                     rc.raw,
		RawTBSCertificate:       t.raw,
		RawSubjectPublicKeyInfo: t.spki,
		RawSubject:              t.subject,
		RawIssuer:               t.issuer,
		Signature:               rc.signature,
		Version:                 t.versionNum,
		SerialNumber:            t.serial,
		NotBefore:               t.notBefore,
		NotAfter:                t.notAfter,
		Extensions:              pkixExtensions(t.extensions),
		MaxPathLen:              -1,
	}
	if t.serial.Sign() < 0 {
		rep.addf("negative serial number")
	} else if !t.serialDER {
		rep.addf("serial number not minimally encoded")
	}
	if alg, err := ParseSignatureAlgorithm(rc.sigAlg, 0); err == nil {
		c.SignatureAlgorithm = alg.X509()
	} else {
		rep.addf("signature algorithm: %v", err)
	}
	var err error
	if c.Issuer, err = ParseName(t.issuer); err != nil {
		rep.addf("issuer: %v", err)
	}
	if c.Subject, err = ParseName(t.subject); err != nil {
		rep.addf("subject: %v", err)
	}
	if c.PublicKey, c.PublicKeyAlgorithm, err = ParsePublicKey(t.spki); err != nil {
		rep.addf("public key: %v", err)
	}
	seen := map[string]bool{}
	for _, e := range t.extensions {
		if seen[e.oid.String()] {
			rep.addf("extension %v repeated; the first is used", e.oid)
			continue
		}
		seen[e.oid.String()] = true
		applyNoted(c, e, rep)
		if e.oid.Equal(oidExtPolicies) {
			if _, dup := dedupPolicies(e); dup {
				rep.addf("duplicate certificate policy OIDs")
			}
		}
	}
	return c
}
