package keystore_test

import (
	"crypto"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
	"software.sslmate.com/src/go-pkcs12"

	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestReadKey: the key of a PKCS#12 file comes with its chain, its own
// certificate first; a wrong password is said in words.
func TestReadKey(t *testing.T) {
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	id := p.SealCHRegulated
	raw, err := pkcs12.Modern.Encode(id.Key, id.Certificate, id.Chain()[1:], "secret")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "seal.p12")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("right password", func(t *testing.T) {
		is := is.New(t)
		key, chain, err := keystore.ReadKey(path, "secret")
		is.NoErr(err)
		is.True(chain[0].Equal(id.Certificate))
		is.Equal(len(chain), len(id.Chain()))
		is.True(key.Public().(interface{ Equal(crypto.PublicKey) bool }).Equal(id.Certificate.PublicKey))
	})
	t.Run("wrong password", func(t *testing.T) {
		is := is.New(t)
		_, _, err := keystore.ReadKey(path, "guess")
		is.Equal(err.Error(), "keystore: "+path+": the password is wrong")
	})
}
