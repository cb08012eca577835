package crl

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"math/big"
	"sort"
	"time"
)

// Limits on one CRL. The URL comes from an untrusted certificate and the
// CRL is parsed before its signature can be checked, so both bound what a
// hostile distribution point can make us allocate.
const (
	// MaxBytes bounds the encoded CRL, fetched or parsed. Public CA CRLs
	// are mostly kilobytes to a few megabytes; the largest ones in
	// circulation are some tens of megabytes.
	MaxBytes = 64 << 20

	// MaxEntries bounds the revoked entries. An entry with a 16-byte
	// serial, a date and a reason code takes about 40 bytes, so MaxBytes
	// holds about 1.7 million of them, while the smallest possible entry
	// (a one-byte serial and a date, 17 bytes) would let it hold 3.9
	// million. Two million admits every realistic CRL that fits MaxBytes
	// and bounds the parsed form, about 180 bytes an entry
	// (BenchmarkParse), near 360 MB. The count is checked before any
	// entry is decoded.
	MaxEntries = 2_000_000
)

// CRLReason codes (RFC 5280, section 5.3.1).
const (
	ReasonUnspecified          = 0
	ReasonKeyCompromise        = 1
	ReasonCACompromise         = 2
	ReasonAffiliationChanged   = 3
	ReasonSuperseded           = 4
	ReasonCessationOfOperation = 5
	ReasonCertificateHold      = 6
	ReasonRemoveFromCRL        = 8
	ReasonPrivilegeWithdrawn   = 9
	ReasonAACompromise         = 10
)

// A CRL is a parsed certificate revocation list. It is immutable after
// [Parse] and safe for concurrent use. It is unverified until
// [CRL.CheckSignatureFrom] succeeds.
type CRL struct {
	// Raw is the complete CertificateList, RawTBSCertList the signed part.
	Raw            []byte
	RawTBSCertList []byte

	// Version is 1 or 2.
	Version int
	// RawIssuer is the DER issuer Name.
	RawIssuer  []byte
	Issuer     pkix.RDNSequence
	ThisUpdate time.Time
	// NextUpdate is zero when absent.
	NextUpdate time.Time

	// Entries are the revoked certificates in CRL order.
	Entries []Entry

	// Number is the CRL number, nil when absent.
	Number *big.Int
	// DeltaCRLIndicator is the base CRL number of a delta CRL, nil for a
	// complete CRL.
	DeltaCRLIndicator *big.Int
	// IssuingDistributionPoint is the DER extension value, nil when
	// absent. It limits what the CRL covers; see the package
	// documentation.
	IssuingDistributionPoint []byte
	// AuthorityKeyID is the keyIdentifier of the authority key
	// identifier extension, nil when absent.
	AuthorityKeyID []byte
	// Extensions are all crlExtensions, the above included.
	Extensions []pkix.Extension
	// UnhandledCriticalExtensions lists critical CRL and entry extensions
	// this package does not interpret or expose.
	UnhandledCriticalExtensions []asn1.ObjectIdentifier

	// SignatureAlgorithm names the algorithm of Signature;
	// x509.UnknownSignatureAlgorithm when this package cannot verify it.
	SignatureAlgorithm x509.SignatureAlgorithm
	// RawSignatureAlgorithm is the outer AlgorithmIdentifier.
	RawSignatureAlgorithm []byte
	Signature             []byte

	// bySerial indexes Entries in serial number order, stable, so that
	// of duplicate entries the first in the CRL wins.
	bySerial []int32
}

// An Entry is one revoked certificate.
type Entry struct {
	Serial         *big.Int
	RevocationTime time.Time
	// Reason is the reason code extension's value, ReasonUnspecified when
	// absent. HasReason tells the two apart.
	Reason    int
	HasReason bool
	// InvalidityDate is zero when absent.
	InvalidityDate time.Time
	// CertificateIssuer is the DER GeneralNames of the certificate issuer
	// extension of indirect CRLs, nil when absent. Only this entry's
	// value is given; RFC 5280 carries it over to the following entries,
	// which is the scope logic's business.
	CertificateIssuer []byte
	Extensions        []pkix.Extension
}

// index builds bySerial.
func (c *CRL) index() {
	c.bySerial = make([]int32, len(c.Entries))
	for i := range c.bySerial {
		c.bySerial[i] = int32(i)
	}
	sort.SliceStable(c.bySerial, func(i, j int) bool {
		return c.Entries[c.bySerial[i]].Serial.Cmp(c.Entries[c.bySerial[j]].Serial) < 0
	})
}

// Lookup returns the entry for serial, if listed.
func (c *CRL) Lookup(serial *big.Int) (Entry, bool) {
	if serial == nil {
		return Entry{}, false
	}
	i := sort.Search(len(c.bySerial), func(i int) bool {
		return c.Entries[c.bySerial[i]].Serial.Cmp(serial) >= 0
	})
	if i < len(c.bySerial) && c.Entries[c.bySerial[i]].Serial.Cmp(serial) == 0 {
		return c.Entries[c.bySerial[i]], true
	}
	return Entry{}, false
}

// Status reports whether serial is listed as revoked, since when and for
// which reason (a CRLReason code). An entry with reason removeFromCRL,
// which only delta CRLs carry, releases a hold: it reports not revoked,
// with its date and reason. A serial not listed reports (false, zero,
// ReasonUnspecified); whether that means "good" depends on the CRL's scope
// (see the package documentation).
func (c *CRL) Status(serial *big.Int) (revoked bool, at time.Time, reason int) {
	e, ok := c.Lookup(serial)
	if !ok {
		return false, time.Time{}, ReasonUnspecified
	}
	return e.Reason != ReasonRemoveFromCRL, e.RevocationTime, e.Reason
}
