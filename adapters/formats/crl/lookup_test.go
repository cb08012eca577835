package crl_test

import (
	"crypto/rand"
	"crypto/x509"
	"math/big"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/crl"
	"github.com/svc-dss/dss/fixtures/pki"
)

// Of entries listing one serial twice or more, the first in the CRL is
// the one Lookup and Status report, wherever the others stand (mutation
// testing, docs/testing.md, found the order of equal serials unchecked).
func TestLookupDuplicateSerials(t *testing.T) {
	t.Parallel()
	p := fixture(t)
	first := pki.RevocationTime
	tests := []struct {
		name       string
		entries    []x509.RevocationListEntry
		serial     int64
		reason     int
		revokedAt  time.Time
		notRevoked bool
	}{
		{"two entries, keyCompromise first", []x509.RevocationListEntry{
			{SerialNumber: big.NewInt(5), RevocationTime: first, ReasonCode: crl.ReasonKeyCompromise},
			{SerialNumber: big.NewInt(5), RevocationTime: first.Add(time.Hour), ReasonCode: crl.ReasonCertificateHold},
		}, 5, crl.ReasonKeyCompromise, first, false},
		{"three entries among others, removeFromCRL first", []x509.RevocationListEntry{
			{SerialNumber: big.NewInt(9), RevocationTime: first, ReasonCode: crl.ReasonKeyCompromise},
			{SerialNumber: big.NewInt(5), RevocationTime: first, ReasonCode: crl.ReasonRemoveFromCRL},
			{SerialNumber: big.NewInt(2), RevocationTime: first, ReasonCode: crl.ReasonKeyCompromise},
			{SerialNumber: big.NewInt(5), RevocationTime: first.Add(time.Hour), ReasonCode: crl.ReasonCertificateHold},
			{SerialNumber: big.NewInt(5), RevocationTime: first.Add(2 * time.Hour), ReasonCode: crl.ReasonKeyCompromise},
		}, 5, crl.ReasonRemoveFromCRL, first, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			der, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
				Number:                    big.NewInt(1),
				ThisUpdate:                pki.ReferenceTime,
				NextUpdate:                pki.ReferenceTime.Add(time.Hour),
				RevokedCertificateEntries: tt.entries,
			}, p.Intermediate.Certificate, p.Intermediate.Key)
			is.NoErr(err)
			l, err := crl.Parse(der)
			is.NoErr(err)
			revoked, at, reason := l.Status(big.NewInt(tt.serial))
			is.Equal(revoked, !tt.notRevoked)
			is.True(at.Equal(tt.revokedAt))
			is.Equal(reason, tt.reason) // the first entry's
		})
	}
}
