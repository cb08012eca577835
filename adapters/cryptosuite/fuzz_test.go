package cryptosuite_test

import (
	"errors"
	"testing"

	"github.com/svc-dss/dss/adapters/cryptosuite"
	"github.com/svc-dss/dss/domain/algorithm"
)

// FuzzParse: Parse never panics; every error is an *Error wrapping
// ErrInvalid; a catalogue read judges any use with a limit that has a
// reason when never acceptable.
func FuzzParse(f *testing.F) {
	f.Add(read(f, "strict.xml"))
	f.Add(read(f, "lax.json"))
	f.Add([]byte(`<dssc:SecuritySuitabilityPolicy xmlns:dssc="urn:ietf:params:xml:ns:dssc"><dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>SHA256</dssc:Name></dssc:AlgorithmIdentifier><dssc:Evaluation><dssc:Parameter name="x"><dssc:Min>1</dssc:Min></dssc:Parameter><dssc:Validity><dssc:End>2029-01-01+01:00</dssc:End></dssc:Validity></dssc:Evaluation></dssc:Algorithm></dssc:SecuritySuitabilityPolicy>`))
	f.Add([]byte(`{"SecuritySuitabilityPolicy":{"Algorithm":{"AlgorithmIdentifier":{"Name":"rsassa-pss"},"Evaluation":{"Parameter":{"name":"moduluslength","Min":"1900","Max":4096},"Validity":{"End":"2030-01-01"}}}}}`))
	f.Add([]byte(`<!DOCTYPE a><a/>`))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := cryptosuite.Parse(data)
		if err != nil {
			var e *cryptosuite.Error
			if !errors.As(err, &e) || !errors.Is(err, cryptosuite.ErrInvalid) {
				t.Fatalf("error %v (%T) is not a *cryptosuite.Error", err, err)
			}
			return
		}
		for _, u := range []algorithm.Use{{Digest: "SHA-256"}, {Key: algorithm.RSA, Bits: 2048, Digest: "SHA-256"}, {Key: algorithm.EC, Bits: 256, Digest: "SHA-256"}, {Key: algorithm.Ed448, Bits: 448}} {
			if l := c.Judge(u); l.Never && l.Reason == "" {
				t.Fatalf("%s: never, without a reason", u)
			}
		}
	})
}
