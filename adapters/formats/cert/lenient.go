package cert

import (
	"crypto"
	"crypto/x509"
)

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
		c.SignatureAlgorithm = x509SignatureAlgorithm(alg)
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
		known, err := applyExtension(c, e)
		if err != nil {
			rep.addf("%v", err)
		}
		if (!known || err != nil) && e.critical {
			c.UnhandledCriticalExtensions = append(c.UnhandledCriticalExtensions, e.oid)
		}
		if e.oid.Equal(oidExtPolicies) {
			if _, dup := dedupPolicies(e); dup {
				rep.addf("duplicate certificate policy OIDs")
			}
		}
	}
	return c
}

// x509SignatureAlgorithm names alg the way crypto/x509 does, or
// x509.UnknownSignatureAlgorithm.
func x509SignatureAlgorithm(alg SignatureAlgorithm) x509.SignatureAlgorithm {
	type key struct {
		scheme Scheme
		hash   crypto.Hash
	}
	switch a := (key{alg.Scheme, alg.Hash}); a {
	case key{PKCS1v15, crypto.SHA1}:
		return x509.SHA1WithRSA
	case key{PKCS1v15, crypto.SHA256}:
		return x509.SHA256WithRSA
	case key{PKCS1v15, crypto.SHA384}:
		return x509.SHA384WithRSA
	case key{PKCS1v15, crypto.SHA512}:
		return x509.SHA512WithRSA
	case key{PSS, crypto.SHA256}:
		return x509.SHA256WithRSAPSS
	case key{PSS, crypto.SHA384}:
		return x509.SHA384WithRSAPSS
	case key{PSS, crypto.SHA512}:
		return x509.SHA512WithRSAPSS
	case key{ECDSA, crypto.SHA1}:
		return x509.ECDSAWithSHA1
	case key{ECDSA, crypto.SHA256}:
		return x509.ECDSAWithSHA256
	case key{ECDSA, crypto.SHA384}:
		return x509.ECDSAWithSHA384
	case key{ECDSA, crypto.SHA512}:
		return x509.ECDSAWithSHA512
	case key{Ed25519, 0}:
		return x509.PureEd25519
	}
	return x509.UnknownSignatureAlgorithm
}
