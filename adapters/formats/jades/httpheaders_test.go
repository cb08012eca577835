package jades_test

import (
	"fmt"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/jades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/ports"
)

// TestReadHTTPHeaders: a sigD of mechanism HttpHeaders (TS 119 182-1
// 5.2.8.3) signs the signature string of draft-cavage-http-signatures
// over the header fields it names, given as detached parts of those
// names (in any case): found and verified, a field missing is not found,
// a changed value does not verify.
func TestReadHTTPHeaders(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	rsa := p.SignerRSA
	hdr := fmt.Sprintf(`{"alg":"RS256","x5c":%s,"x5t#S256":%q,"sigT":"2026-05-31T12:00:00Z",`+
		`"sigD":{"mId":"http://uri.etsi.org/19182/HttpHeaders","pars":["(request-target)","content-type","digest"]},"b64":false,"crit":["sigT","sigD","b64"]}`,
		x5c(rsa), x5tS256(rsa))
	signed := "(request-target): post /invoices\ncontent-type: application/json\ndigest: SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE="
	protected := b64url.EncodeToString([]byte(hdr))
	data := []byte(protected + ".." + b64url.EncodeToString(rawSign(t, rsa, protected+"."+signed)))
	parts := func(ct string) []ports.Detached {
		return []ports.Detached{
			{Name: "Digest", Data: []byte("SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=\n")},
			{Name: "(request-target)", Data: []byte("post /invoices")},
			{Name: "Content-Type", Data: []byte(ct)},
		}
	}
	tests := []struct {
		name  string
		parts []ports.Detached
		value ades.Check
		found []bool
	}{
		{"every field", parts("application/json"), ades.Check{Done: true, Valid: true, Algorithm: "RSA-SHA256"}, []bool{true, true, true}},
		{"a changed value", parts("text/plain"), ades.Check{Done: true, Algorithm: "RSA-SHA256", Reason: jades.CodeSignatureInvalid}, []bool{true, true, true}},
		{"a field missing", parts("application/json")[:2], ades.Check{Algorithm: "RSA-SHA256", Reason: jades.CodeNoContent}, []bool{true, false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := read(t, data, tt.parts...)[0]
			is.Equal(s.Value, tt.value)
			is.Equal(len(s.DataObjects), 3)
			for i, d := range s.DataObjects {
				is.Equal(d.Found, tt.found[i])
				is.True(d.Intact == d.Found) // no digest of their own: found is intact, the value decides
			}
			is.Equal(s.DataObjects[0].Name, "(request-target)")
			if tt.found[1] {
				is.Equal(s.DataObjects[1].Name, "Content-Type") // the part's own name
			}
		})
	}
}
