package cms

import (
	"bytes"
	"encoding/asn1"
	"sync"
	"testing"
	"time"

	"github.com/svc-dss/dss/fixtures/pki"
)

// signingTime is the fixed signing time of test signatures.
var signingTime = time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)

var (
	pkiOnce sync.Once
	pkiVal  *pki.PKI
	pkiErr  error
)

// testPKI returns the fixture PKI, built once per test binary: deriving its
// keys takes most of a second.
func testPKI(tb testing.TB) *pki.PKI {
	tb.Helper()
	pkiOnce.Do(func() { pkiVal, pkiErr = pki.New("http://pki.invalid") })
	if pkiErr != nil {
		tb.Fatal(pkiErr)
	}
	return pkiVal
}

// signerFor is a Signer for a fixture identity at signingTime.
func signerFor(id *pki.Identity) Signer {
	return Signer{Certificate: id.Certificate, Key: id.Key, SigningTime: signingTime}
}

// mustSign signs content or fails tb.
func mustSign(tb testing.TB, content []byte, signers []Signer, opts SignOptions) []byte {
	tb.Helper()
	der, err := Sign(content, signers, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return der
}

// mustParse parses der or fails tb.
func mustParse(tb testing.TB, der []byte) *SignedData {
	tb.Helper()
	sd, err := Parse(der)
	if err != nil {
		tb.Fatal(err)
	}
	return sd
}

// toBER re-encodes DER input with indefinite lengths for every constructed
// element for which convert returns true, and splits OCTET STRINGs longer
// than segment bytes into constructed segments (segment 0: no splitting).
// It is how streaming CAdES signers write.
func toBER(tb testing.TB, der []byte, segment int, convert func(e element) bool) []byte {
	tb.Helper()
	e, rest, err := readElement(der, 0)
	if err != nil || len(rest) != 0 {
		tb.Fatalf("toBER: %v", err)
	}
	var out bytes.Buffer
	var walk func(e element)
	walk = func(e element) {
		if !e.constructed {
			if segment > 0 && e.isUniversal(asn1.TagOctetString) && len(e.content) > segment && convert(e) {
				out.Write([]byte{0x24, 0x80})
				for c := e.content; len(c) > 0; {
					n := min(segment, len(c))
					var seg bytes.Buffer
					writeTLV(&seg, 0x04, c[:n])
					out.Write(seg.Bytes())
					c = c[n:]
				}
				out.Write([]byte{0, 0})
				return
			}
			out.Write(e.raw)
			return
		}
		if !convert(e) {
			out.Write(e.raw)
			return
		}
		out.WriteByte(e.raw[0]) // CMS tags are all in the low form
		out.WriteByte(0x80)
		kids, err := e.children(MaxElements)
		if err != nil {
			tb.Fatalf("toBER: %v", err)
		}
		for _, k := range kids {
			walk(k)
		}
		out.Write([]byte{0, 0})
	}
	walk(e)
	return out.Bytes()
}

func writeTLV(w *bytes.Buffer, tag byte, content []byte) {
	w.WriteByte(tag)
	switch n := len(content); {
	case n < 0x80:
		w.WriteByte(byte(n))
	case n < 0x100:
		w.Write([]byte{0x81, byte(n)})
	case n < 0x10000:
		w.Write([]byte{0x82, byte(n >> 8), byte(n)})
	default:
		w.Write([]byte{0x83, byte(n >> 16), byte(n >> 8), byte(n)})
	}
	w.Write(content)
}

// always converts every element.
func always(element) bool { return true }
