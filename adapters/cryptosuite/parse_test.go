package cryptosuite_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/cryptosuite"
	"github.com/svc-dss/dss/domain/algorithm"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// grid are the uses the comparisons judge: every digest alone and with
// every family and size the documents and the default distinguish.
func grid() []algorithm.Use {
	digests := []algorithm.Digest{"MD5", "SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512", "SHA3-256", "SHA-512/256", "SHAKE256", ""}
	sizes := map[algorithm.Key][]int{
		algorithm.RSA: {512, 1024, 1536, 2048, 3072, 4096}, algorithm.RSAPSS: {1024, 2048, 4096},
		algorithm.DSA: {1024, 2048, 3072}, algorithm.EC: {160, 224, 256, 384, 521},
		algorithm.Ed25519: {256}, algorithm.Ed448: {448},
	}
	var out []algorithm.Use
	for _, d := range digests {
		out = append(out, algorithm.Use{Digest: d})
		for k, bits := range sizes {
			for _, b := range bits {
				out = append(out, algorithm.Use{Key: k, Bits: b, Digest: d})
			}
		}
	}
	return out
}

// TestParse reads the test suites and judges uses as each says.
func TestParse(t *testing.T) {
	t.Parallel()
	never := algorithm.Limit{Never: true}
	noEnd := algorithm.Limit{}
	until := func(t time.Time) algorithm.Limit { return algorithm.Limit{Until: t} }
	type judged struct {
		use  algorithm.Use
		want algorithm.Limit
	}
	tests := []struct {
		file   string
		source string
		uses   []judged
	}{
		{"strict.xml", "svc-dss stricter test suite 1.0 (TS 119 322 document issued 2026-01-15T00:00:00Z)", []judged{
			{algorithm.Use{Digest: "SHA-256"}, noEnd},
			{algorithm.Use{Digest: "SHA-224"}, until(day(2026, time.January, 1))},
			{algorithm.Use{Digest: "SHA-1"}, never},
			{algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA-256"}, noEnd},
			{algorithm.Use{Key: algorithm.RSA, Bits: 1024, Digest: "SHA-256"}, never},
			{algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA-1"}, never},
			{algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA3-256"}, never}, // not paired with RSA here
			{algorithm.Use{Key: algorithm.RSAPSS, Bits: 2048, Digest: "SHA-256"}, noEnd},
			{algorithm.Use{Key: algorithm.EC, Bits: 256, Digest: "SHA-256"}, until(day(2026, time.April, 1))},
			{algorithm.Use{Key: algorithm.EC, Bits: 384, Digest: "SHA-384"}, noEnd},
			{algorithm.Use{Key: algorithm.EC, Bits: 224, Digest: "SHA-256"}, never},
			{algorithm.Use{Key: algorithm.Ed25519, Bits: 256}, noEnd},
			{algorithm.Use{Key: algorithm.Ed448, Bits: 448}, never},
			{algorithm.Use{Key: algorithm.DSA, Bits: 3072, Digest: "SHA-256"}, never},
		}},
		{"lax.xml", "svc-dss laxer test suite 1.0 (TS 119 322 document issued 2026-01-15T00:00:00Z)", []judged{
			{algorithm.Use{Digest: "SHA-1"}, until(day(2030, time.January, 1))},
			{algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA-1"}, until(day(2030, time.January, 1))},
			{algorithm.Use{Key: algorithm.RSA, Bits: 1024, Digest: "SHA-256"}, until(day(2030, time.January, 1))},
			{algorithm.Use{Key: algorithm.RSA, Bits: 4096, Digest: "SHA-256"}, noEnd},
			{algorithm.Use{Key: algorithm.RSA, Bits: 512, Digest: "SHA-256"}, never},
			{algorithm.Use{Key: algorithm.EC, Bits: 256, Digest: "SHA-256"}, noEnd},
			{algorithm.Use{Key: algorithm.Ed448, Bits: 448}, noEnd},
			{algorithm.Use{Key: algorithm.Ed448, Bits: 448, Digest: "SHA-512"}, never}, // RFC 8419, whatever the document says
			{algorithm.Use{Digest: "MD5"}, never},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			c, err := cryptosuite.Parse(read(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, j := range tt.uses {
				got := c.Judge(j.use)
				if got.Never != j.want.Never || !got.Until.Equal(j.want.Until) {
					t.Errorf("%s: %+v, want never %v until %v", j.use, got, j.want.Never, j.want.Until)
				}
				if got.Never && got.Reason == "" {
					t.Errorf("%s: never, without a reason", j.use)
				}
				if !got.Never && got.Source != tt.source {
					t.Errorf("%s: source %q, want %q", j.use, got.Source, tt.source)
				}
			}
		})
	}
}

// TestJSONAndXMLAgree: lax.json is lax.xml in the JSON form; both judge
// every use of the grid alike.
func TestJSONAndXMLAgree(t *testing.T) {
	t.Parallel()
	x, err := cryptosuite.Parse(read(t, "lax.xml"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := cryptosuite.Parse(read(t, "lax.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range grid() {
		a, b := x.Judge(u), j.Judge(u)
		if a.Never != b.Never || !a.Until.Equal(b.Until) || a.Source != b.Source {
			t.Errorf("%s: XML %+v, JSON %+v", u, a, b)
		}
	}
}

// TestParseDSSShapes: the shapes of the documents DSS reads (TS 119 312's
// machine-readable suite): xs:date ends with a time zone, dateTime ends,
// one Evaluation or Parameter as an object in JSON, numbers as strings,
// "Objectidentifier" spelled so, the early root
// "SecuritySuitabilityPolicyType", a name written "ECDSA with SHA-256",
// a digest named by a wrong object identifier but the right name.
func TestParseDSSShapes(t *testing.T) {
	t.Parallel()
	xml := `<?xml version="1.0" encoding="UTF-8" standalone="no"?><dssc:SecuritySuitabilityPolicy xmlns:dssc="urn:ietf:params:xml:ns:dssc" xmlns:etsi19322="http://uri.etsi.org/19322/v1.1.1#" version="2">
<dssc:PolicyName><dssc:Name>ETSI ESI Cryptographic Suites</dssc:Name><dssc:ObjectIdentifier>2.1.1</dssc:ObjectIdentifier><dssc:URI/></dssc:PolicyName>
<dssc:PolicyIssueDate>2026-02-01T00:00:00.000+01:00</dssc:PolicyIssueDate>
<dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>SHA224</dssc:Name><dssc:ObjectIdentifier>1.2.840.10045.4.3.1</dssc:ObjectIdentifier></dssc:AlgorithmIdentifier>
<dssc:Evaluation><dssc:Validity><dssc:End>2029-01-01+01:00</dssc:End></dssc:Validity><etsi19322:MoreDetails><etsi19322:Recommendation>L</etsi19322:Recommendation></etsi19322:MoreDetails></dssc:Evaluation></dssc:Algorithm>
<dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>SHA256</dssc:Name></dssc:AlgorithmIdentifier><dssc:Evaluation><dssc:Validity/></dssc:Evaluation></dssc:Algorithm>
<dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>sha256WithRSAEncryption</dssc:Name></dssc:AlgorithmIdentifier>
<dssc:Evaluation><dssc:Parameter name="moduluslength"><dssc:Min>1900</dssc:Min></dssc:Parameter><dssc:Validity><dssc:End>2026-04-01+01:00</dssc:End></dssc:Validity></dssc:Evaluation>
<dssc:Evaluation><dssc:Parameter name="moduluslength"><dssc:Min>3000</dssc:Min></dssc:Parameter><dssc:Validity><dssc:End>2034-01-01+01:00</dssc:End></dssc:Validity></dssc:Evaluation></dssc:Algorithm>
<dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>DSA</dssc:Name></dssc:AlgorithmIdentifier>
<dssc:Evaluation><dssc:Parameter name="plength"><dssc:Min>1900</dssc:Min></dssc:Parameter><dssc:Parameter name="qlength"><dssc:Min>200</dssc:Min></dssc:Parameter><dssc:Validity><dssc:Start>2020-01-01</dssc:Start></dssc:Validity></dssc:Evaluation></dssc:Algorithm>
<dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>brainpoolP256r1</dssc:Name><dssc:ObjectIdentifier>1.3.36.3.3.2.8.1.1.7</dssc:ObjectIdentifier></dssc:AlgorithmIdentifier><dssc:Evaluation><dssc:Validity/></dssc:Evaluation></dssc:Algorithm>
</dssc:SecuritySuitabilityPolicy>`
	json := `{"SecuritySuitabilityPolicyType":{"PolicyName":{"Name":"ETSI ESI Cryptographic Suites","ObjectIdentifier":"1.5.1"},"PolicyIssueDate":"2024-10-13T00:00:00.000+01:00",
"Algorithm":[{"AlgorithmIdentifier":{"Name":"SHA224","Objectidentifier":"1.2.840.10045.4.3.1"},"Evaluation":{"Validity":{"End":"2028-12-31T23:59:59.999+01:00"},"Recommendation":"L"}},
{"AlgorithmIdentifier":{"Name":"SHA256","Objectidentifier":"2.16.840.1.101.3.4.2.1"},"Evaluation":{"Validity":{}}},
{"AlgorithmIdentifier":{"Name":"ECDSA with SHA-256","Objectidentifier":"1.2.840.10045.4.3.2"},"Evaluation":{"Validity":{},"Recommendation":"R"}},
{"AlgorithmIdentifier":{"Name":"sha256WithRSAEncryption"},"Evaluation":[{"Validity":{"End":"2028-12-31T23:59:59.999+01:00"},"Parameter":{"Min":"1900","name":"moduluslength"}}]}]}}`
	tests := []struct {
		name string
		data string
		use  algorithm.Use
		want time.Time // zero: no end
	}{
		{"XML date with a zone", xml, algorithm.Use{Digest: "SHA-224"}, time.Date(2028, time.December, 31, 23, 0, 0, 0, time.UTC)},
		{"XML sizes", xml, algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA-256"}, time.Date(2026, time.March, 31, 23, 0, 0, 0, time.UTC)},
		{"XML larger key", xml, algorithm.Use{Key: algorithm.RSA, Bits: 4096, Digest: "SHA-256"}, time.Date(2033, time.December, 31, 23, 0, 0, 0, time.UTC)},
		{"XML DSA by its p", xml, algorithm.Use{Key: algorithm.DSA, Bits: 2048, Digest: "SHA-256"}, time.Time{}},
		{"JSON dateTime", json, algorithm.Use{Digest: "SHA-224"}, time.Date(2028, time.December, 31, 22, 59, 59, 999_000_000, time.UTC)},
		{"JSON sizes as strings", json, algorithm.Use{Key: algorithm.RSA, Bits: 2048, Digest: "SHA-256"}, time.Date(2028, time.December, 31, 22, 59, 59, 999_000_000, time.UTC)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			c, err := cryptosuite.Parse([]byte(tt.data))
			is.NoErr(err)
			l := c.Judge(tt.use)
			is.True(!l.Never)
			is.Equal(l.Until, tt.want)
		})
	}
	c, err := cryptosuite.Parse([]byte(json))
	if err != nil {
		t.Fatal(err)
	}
	if l := c.Judge(algorithm.Use{Key: algorithm.EC, Bits: 256, Digest: "SHA-256"}); l.Never || !l.Until.Equal(time.Time{}) {
		t.Errorf("ECDSA with SHA-256 named so: %+v", l)
	}
	if got := c.Judge(algorithm.Use{Digest: "SHA-384"}); !got.Never {
		t.Errorf("SHA-384 is not in the document, yet %+v", got)
	}
}

// TestParseErrors: every malformed document is refused with the path in
// it and the problem.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	x := func(body string) string {
		return `<dssc:SecuritySuitabilityPolicy xmlns:dssc="urn:ietf:params:xml:ns:dssc"><dssc:PolicyName><dssc:Name>n</dssc:Name></dssc:PolicyName>` + body + `</dssc:SecuritySuitabilityPolicy>`
	}
	sha := `<dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>SHA256</dssc:Name></dssc:AlgorithmIdentifier><dssc:Evaluation><dssc:Validity/></dssc:Evaluation></dssc:Algorithm>`
	rsa := func(eval string) string {
		return `<dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>sha256WithRSAEncryption</dssc:Name></dssc:AlgorithmIdentifier><dssc:Evaluation>` + eval + `</dssc:Evaluation></dssc:Algorithm>`
	}
	j := func(algs string) string {
		return `{"SecuritySuitabilityPolicy":{"PolicyName":{"Name":"n"},"Algorithm":[` + algs + `]}}`
	}
	tests := []struct {
		name, data, want string
	}{
		{"empty", "  \n", "cryptosuite: the document is empty"},
		{"neither", "SHA256", "cryptosuite: the document is neither XML nor JSON"},
		{"too large", "<" + strings.Repeat(" ", cryptosuite.MaxSize), "cryptosuite: the document has 1048577 bytes, more than the 1048576 allowed"},
		{"doctype", `<!DOCTYPE x [<!ENTITY a "aaaa">]>` + x(sha), "cryptosuite: a document with a DOCTYPE is refused (no DTD or entity is processed)"},
		{"not XML", "<a><b></a>", "cryptosuite: not well-formed XML: "},
		{"another root", `<TrustServiceStatusList xmlns="http://uri.etsi.org/02231/v2#"/>`,
			"cryptosuite: /{http://uri.etsi.org/02231/v2#}TrustServiceStatusList: the root element is not a SecuritySuitabilityPolicy of namespace urn:ietf:params:xml:ns:dssc"},
		{"no algorithm", x(""), "cryptosuite: /SecuritySuitabilityPolicy: the document lists no Algorithm"},
		{"only unknown algorithms", x(`<dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>ML-DSA-44</dssc:Name></dssc:AlgorithmIdentifier><dssc:Evaluation><dssc:Validity/></dssc:Evaluation></dssc:Algorithm>`),
			"cryptosuite: /SecuritySuitabilityPolicy: the document lists no algorithm this validator judges (digest, RSA, DSA, ECDSA or EdDSA)"},
		{"no identifier", x(sha + `<dssc:Algorithm><dssc:Evaluation/></dssc:Algorithm>`), "cryptosuite: /SecuritySuitabilityPolicy/Algorithm[2]: an Algorithm without its AlgorithmIdentifier"},
		{"empty identifier", x(`<dssc:Algorithm><dssc:AlgorithmIdentifier/><dssc:Evaluation/></dssc:Algorithm>`),
			"cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/AlgorithmIdentifier: names no algorithm: no Name, ObjectIdentifier or URI"},
		{"no evaluation", x(`<dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>SHA256</dssc:Name></dssc:AlgorithmIdentifier></dssc:Algorithm>`),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]: algorithm "SHA256" has no Evaluation`},
		{"end not a date", x(sha + sha + sha + rsa(`<dssc:Validity><dssc:End>2029-13-01</dssc:End></dssc:Validity>`)),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[4]/Evaluation[1]/Validity/End: "2029-13-01" is not a date`},
		{"start not a date", x(rsa(`<dssc:Validity><dssc:Start>soon</dssc:Start></dssc:Validity>`)),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Validity/Start: "soon" is not a date`},
		{"issue date", `<dssc:SecuritySuitabilityPolicy xmlns:dssc="urn:ietf:params:xml:ns:dssc"><dssc:PolicyIssueDate>yesterday</dssc:PolicyIssueDate>` + sha + `</dssc:SecuritySuitabilityPolicy>`,
			`cryptosuite: /SecuritySuitabilityPolicy/PolicyIssueDate: "yesterday" is not a date`},
		{"size not a number", x(rsa(`<dssc:Parameter name="moduluslength"><dssc:Min>2k</dssc:Min></dssc:Parameter>`)),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Parameter[1]/Min: "2k" is not a key size in bits (a whole number from 0 to 65536)`},
		{"max below min", x(rsa(`<dssc:Parameter name="moduluslength"><dssc:Min>3000</dssc:Min><dssc:Max>2048</dssc:Max></dssc:Parameter>`)),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Parameter[1]: parameter "moduluslength" has Max 2048 below Min 3000`},
		{"neither min nor max", x(rsa(`<dssc:Parameter name="moduluslength"/>`)),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Parameter[1]: parameter "moduluslength" has neither Min nor Max`},
		{"parameter without name", x(rsa(`<dssc:Parameter><dssc:Min>1</dssc:Min></dssc:Parameter>`)),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Parameter[1]: a Parameter without its name`},
		{"parameter twice", x(rsa(`<dssc:Parameter name="moduluslength"><dssc:Min>1900</dssc:Min></dssc:Parameter><dssc:Parameter name="moduluslength"><dssc:Min>3000</dssc:Min></dssc:Parameter>`)),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Parameter[2]: parameter "moduluslength" is given twice in one Evaluation`},
		{"parameter of another algorithm", x(rsa(`<dssc:Parameter name="plength"><dssc:Min>1900</dssc:Min></dssc:Parameter>`)),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Parameter[1]: parameter "plength" does not apply to algorithm "sha256WithRSAEncryption" (it takes moduluslength)`},
		{"parameter of a digest", x(`<dssc:Algorithm><dssc:AlgorithmIdentifier><dssc:Name>SHA256</dssc:Name></dssc:AlgorithmIdentifier><dssc:Evaluation><dssc:Parameter name="moduluslength"><dssc:Min>1</dssc:Min></dssc:Parameter></dssc:Evaluation></dssc:Algorithm>`),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Parameter[1]: parameter "moduluslength" does not apply to algorithm "SHA256", which takes none`},
		{"JSON not well-formed", `{"SecuritySuitabilityPolicy":`, "cryptosuite: not well-formed JSON: unexpected EOF"},
		{"JSON trailing data", j(`{"AlgorithmIdentifier":{"Name":"SHA256"},"Evaluation":{}}`) + `{}`, "cryptosuite: not well-formed JSON: data after the top-level object"},
		{"JSON no root", `{"Policy":{}}`, "cryptosuite: /: the document holds no SecuritySuitabilityPolicy object"},
		{"JSON algorithm not an object", j(`"SHA256"`), "cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]: an Algorithm is not an object"},
		{"JSON no identifier", j(`{"Evaluation":{}}`), "cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]: an Algorithm without its AlgorithmIdentifier object"},
		{"JSON name not a string", j(`{"AlgorithmIdentifier":{"Name":{}},"Evaluation":{}}`), "cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/AlgorithmIdentifier/Name: is neither a string nor a number"},
		{"JSON OID not a string", j(`{"AlgorithmIdentifier":{"Name":"SHA256","ObjectIdentifier":[1]},"Evaluation":{}}`), "cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/AlgorithmIdentifier/ObjectIdentifier[1]: is not a string"},
		{"JSON evaluation not an object", j(`{"AlgorithmIdentifier":{"Name":"SHA256"},"Evaluation":[1]}`), "cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]: an Evaluation is not an object"},
		{"JSON validity not an object", j(`{"AlgorithmIdentifier":{"Name":"SHA256"},"Evaluation":{"Validity":"2029"}}`), "cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Validity: Validity is not an object"},
		{"JSON parameter not an object", j(`{"AlgorithmIdentifier":{"Name":"SHA256"},"Evaluation":{"Parameter":["x"]}}`), "cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Parameter[1]: a Parameter is not an object"},
		{"JSON end not a date", j(`{"AlgorithmIdentifier":{"Name":"SHA256"},"Evaluation":{"Validity":{"End":"2029-02-30"}}}`),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Validity/End: "2029-02-30" is not a date`},
		{"JSON size negative", j(`{"AlgorithmIdentifier":{"Name":"rsassa-pss"},"Evaluation":{"Parameter":{"name":"moduluslength","Min":-1}}}`),
			`cryptosuite: /SecuritySuitabilityPolicy/Algorithm[1]/Evaluation[1]/Parameter[1]/Min: "-1" is not a key size in bits (a whole number from 0 to 65536)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			_, err := cryptosuite.Parse([]byte(tt.data))
			is.True(err != nil)
			var e *cryptosuite.Error
			is.True(errors.As(err, &e))
			is.True(errors.Is(err, cryptosuite.ErrInvalid))
			if strings.HasSuffix(tt.want, ": ") {
				is.True(strings.HasPrefix(err.Error(), tt.want)) // the parser's own words follow
				return
			}
			is.Equal(err.Error(), tt.want)
		})
	}
}

// TestParseLinear: a document of the largest size reads in one pass: a
// hundred times the algorithms of lax.xml cost about a hundred times
// the allocation, not the square (the bound is generous; no timing).
func TestParseLinear(t *testing.T) {
	one := read(t, "lax.xml")
	start := strings.Index(string(one), "<dssc:Algorithm>")
	end := strings.LastIndex(string(one), "</dssc:SecuritySuitabilityPolicy>")
	body := string(one[start:end])
	many := string(one[:start]) + strings.Repeat(body, 100) + string(one[end:])
	small := testing.AllocsPerRun(3, func() { _, _ = cryptosuite.Parse(one) })
	large := testing.AllocsPerRun(3, func() { _, _ = cryptosuite.Parse([]byte(many)) })
	if large > 150*small {
		t.Errorf("100 times the algorithms: %.0f allocations against %.0f", large, small)
	}
}
