package timestamp_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/timestamp"
	fcades "github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/ports"
)

var (
	pkiOnce sync.Once
	testP   *pki.PKI
	pkiErr  error
)

// testPKI is one fixture PKI for the package's tests: building one
// takes a while.
func testPKI(t testing.TB) *pki.PKI {
	t.Helper()
	pkiOnce.Do(func() { testP, pkiErr = pki.New("http://127.0.0.1:8080") })
	if pkiErr != nil {
		t.Fatal(pkiErr)
	}
	return testP
}

var stampedAt = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// tokens are a token and a response over content by the fixture TSA.
func tokens(t testing.TB, content []byte) (token, response []byte) {
	t.Helper()
	p := testPKI(t)
	sum := sha256.Sum256(content)
	token, err := fcades.TimestampToken(p, sum[:], stampedAt)
	if err != nil {
		t.Fatal(err)
	}
	response, err = fcades.TimestampResponse(p, p.TSA, sum[:], stampedAt)
	if err != nil {
		t.Fatal(err)
	}
	return token, response
}

// A token and a response (what openssl ts -reply writes) read alike: one
// time-stamp entry, no signature, its imprint checked against the
// detached part that matches (whatever its position), the first part
// when none does, none without data.
func TestReadContents(t *testing.T) {
	t.Parallel()
	content := []byte("the contract\n")
	token, response := tokens(t, content)
	other := ports.Detached{Name: "annex.txt", Data: []byte("an annex\n")}
	contract := ports.Detached{Name: "contract.txt", Data: content}
	for _, form := range []struct {
		name string
		data []byte
	}{{"token", token}, {"response", response}} {
		tests := []struct {
			name     string
			detached []ports.Detached
			covered  string // "" for no data object
			part     int
			intact   bool
		}{
			{"with its data", []ports.Detached{contract}, "contract.txt", 1, true},
			{"its data second", []ports.Detached{other, contract}, "contract.txt", 2, true},
			{"other data", []ports.Detached{other}, "annex.txt", 1, false},
			{"no data", nil, "", 0, false},
		}
		for _, tt := range tests {
			t.Run(form.name+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				is := is.New(t)
				is.True(timestamp.Detect(form.data))
				is.True(!cades.Detect(form.data)) // not a signature
				c, err := timestamp.NewReader().ReadContents(context.Background(), ports.Document{Name: "contract.tst", Data: form.data, Detached: tt.detached})
				is.NoErr(err)
				is.Equal(len(c.Signatures), 0)
				is.Equal(len(c.Timestamps), 1)
				e := c.Timestamps[0]
				is.Equal(e.Name, "contract.tst")
				is.Equal(e.Container, "")
				is.Equal(e.ID[:2], "T-")
				is.True(e.Timestamp.GenTime.Equal(stampedAt))
				is.True(e.Timestamp.Value.Done && e.Timestamp.Value.Valid)
				is.Equal(e.Timestamp.TSACertificate.Subject.String(), testPKI(t).TSA.Certificate.Subject.String())
				is.Equal(e.Timestamp.Imprint.Valid, tt.intact)
				if tt.covered == "" {
					is.Equal(len(e.DataObjects), 0)
					is.True(!e.Timestamp.Imprint.Done)
					return
				}
				is.Equal(len(e.DataObjects), 1)
				d := e.DataObjects[0]
				is.Equal(d.Name, tt.covered)
				is.Equal(d.Part, tt.part)
				is.True(d.Found)
				is.Equal(d.Intact, tt.intact)
				is.Equal(d.DigestAlgorithm, "SHA256")

				sigs, err := timestamp.NewReader().Read(context.Background(), ports.Document{Name: "contract.tst", Data: form.data})
				is.NoErr(err)
				is.Equal(len(sigs), 0)
			})
		}
	}
}

// What is not a time-stamp is not this format, unread; a time-stamp that
// cannot be read is unreadable (400), as in every format.
func TestReadRefuses(t *testing.T) {
	t.Parallel()
	content := []byte("the contract\n")
	token, _ := tokens(t, content)
	p := testPKI(t)
	sig, err := fcades.Sign(content, fcades.Options{PKI: p, Signer: p.SignerRSA, Level: fcades.B, SigningTime: stampedAt})
	if err != nil {
		t.Fatal(err)
	}
	truncated := token[:len(token)-10]
	granted := []byte{0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x00}  // status granted, no token
	rejected := []byte{0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x02} // status rejection, no token
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"a CMS signature", sig, ports.ErrNotThisFormat},
		{"text", []byte("hello, world"), ports.ErrNotThisFormat},
		{"a SEQUENCE of something else", []byte{0x30, 0x03, 0x02, 0x01, 0x01}, ports.ErrNotThisFormat},
		{"nothing", nil, ports.ErrNotThisFormat},
		{"a truncated token", truncated, ports.ErrUnreadable},
		{"a rejected response", rejected, ports.ErrUnreadable},
		{"a granted response without a token", granted, ports.ErrUnreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			_, err := timestamp.NewReader().ReadContents(context.Background(), ports.Document{Name: "x.tst", Data: tt.data, Detached: []ports.Detached{{Name: "contract.txt", Data: content}}})
			is.True(errors.Is(err, tt.want))
			is.Equal(timestamp.Detect(tt.data), !errors.Is(tt.want, ports.ErrNotThisFormat))
		})
	}
	t.Run("too many parts", func(t *testing.T) {
		is := is.New(t)
		parts := make([]ports.Detached, timestamp.MaxDetached+1)
		_, err := timestamp.NewReader().ReadContents(context.Background(), ports.Document{Name: "x.tst", Data: token, Detached: parts})
		is.True(errors.Is(err, ports.ErrUnreadable))
	})
	t.Run("the CAdES reader leaves a token alone", func(t *testing.T) {
		is := is.New(t)
		_, err := cades.NewReader().Read(context.Background(), ports.Document{Name: "x.tst", Data: token})
		is.True(errors.Is(err, ports.ErrNotThisFormat))
		is.True(cades.Detect(sig))
	})
}
