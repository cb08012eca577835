package seal_test

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/seal"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestNewRefuses: a seal whose key is not its certificate's, or that
// lacks either, is refused with a message that says which.
func TestNewRefuses(t *testing.T) {
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		id   *pki.Identity
		cert *pki.Identity
		want string
	}{
		{"no key", nil, p.SealCHRegulated, "seal: a key and its certificate are required"},
		{"another's key", p.SignerRSA, p.SealCHRegulated,
			`seal: the key does not belong to the certificate "` + p.SealCHRegulated.Certificate.Subject.String() + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var s *seal.Seal
			if tt.id == nil {
				s, err = seal.New(nil, tt.cert.Chain(), nil, time.Now)
			} else {
				s, err = seal.New(tt.id.Key, tt.cert.Chain(), nil, time.Now)
			}
			is.True(s == nil)
			is.Equal(err.Error(), tt.want)
		})
	}
}
