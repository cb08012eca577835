package verdict_test

import (
	"encoding/json"
	"encoding/xml"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
)

// The indications of EN 319 102-1 clause 5.1.3, as DSS spells them.
var indications = []string{"TOTAL_PASSED", "TOTAL_FAILED", "INDETERMINATE", "PASSED", "FAILED"}

// The 25 sub-indications of EN 319 102-1 clause 5.1.3.
var subIndications = []string{
	"FORMAT_FAILURE", "HASH_FAILURE", "SIG_CRYPTO_FAILURE", "REVOKED", "EXPIRED", "NOT_YET_VALID",
	"SIG_CONSTRAINTS_FAILURE", "CHAIN_CONSTRAINTS_FAILURE", "CERTIFICATE_CHAIN_GENERAL_FAILURE",
	"CRYPTO_CONSTRAINTS_FAILURE", "POLICY_PROCESSING_ERROR", "SIGNATURE_POLICY_NOT_AVAILABLE",
	"TIMESTAMP_ORDER_FAILURE", "NO_SIGNING_CERTIFICATE_FOUND", "NO_CERTIFICATE_CHAIN_FOUND",
	"NO_CERTIFICATE_CHAIN_FOUND_NO_POE", "REVOKED_NO_POE", "REVOKED_CA_NO_POE", "OUT_OF_BOUNDS_NOT_REVOKED",
	"OUT_OF_BOUNDS_NO_POE", "REVOCATION_OUT_OF_BOUNDS_NO_POE", "CRYPTO_CONSTRAINTS_FAILURE_NO_POE", "NO_POE",
	"TRY_LATER", "SIGNED_DATA_NOT_FOUND",
}

// coded is a value in every place JSON and XML put one.
type coded[T any] struct {
	XMLName xml.Name `json:"-" xml:"c"`
	Attr    T        `json:"-" xml:"a,attr"`
	Elem    T        `json:"v" xml:"v"`
}

// roundTrip writes v as JSON and XML, checks that both spell name, and
// reads them back.
func roundTrip[T comparable](t *testing.T, v T, name string) {
	t.Helper()
	is := is.NewRelaxed(t)
	j, err := json.Marshal(coded[T]{Elem: v})
	is.NoErr(err)
	is.Equal(string(j), `{"v":"`+name+`"}`)
	x, err := xml.Marshal(coded[T]{Attr: v, Elem: v})
	is.NoErr(err)
	is.Equal(string(x), `<c a="`+name+`"><v>`+name+`</v></c>`)
	var fromJSON, fromXML coded[T]
	is.NoErr(json.Unmarshal(j, &fromJSON))
	is.Equal(fromJSON.Elem, v)
	is.NoErr(xml.Unmarshal(x, &fromXML))
	is.Equal(fromXML.Attr, v)
	is.Equal(fromXML.Elem, v)
}

// Every indication and sub-indication of the standard is written and read
// as its name, in JSON and in XML: what a named string would give.
func TestIndicationsAreTheirNames(t *testing.T) {
	t.Parallel()
	for _, name := range indications {
		roundTrip(t, verdict.Indication(name), name)
	}
	for _, name := range subIndications {
		roundTrip(t, verdict.SubIndication(name), name)
	}
	roundTrip(t, verdict.TotalPassed, "TOTAL_PASSED")
	roundTrip(t, verdict.SubCryptoConstraintsFailureNoPOE, "CRYPTO_CONSTRAINTS_FAILURE_NO_POE")
	// The zero value is none: empty, both ways.
	roundTrip(t, verdict.Indication(""), "")
	roundTrip(t, verdict.SubIndication(""), "")
}

// A value the standard does not name is neither written nor read.
func TestUnknownIndications(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"TOTAL-PASSED", "total_passed", "NO_SIGNATURE_FOUND", "GENERIC", " PASSED"} {
		is := is.NewRelaxed(t)
		_, err := json.Marshal(verdict.Indication(name))
		is.True(err != nil) // unknown indication written
		_, err = json.Marshal(verdict.SubIndication(name))
		is.True(err != nil) // unknown sub-indication written
		var i verdict.Indication
		is.True(json.Unmarshal([]byte(`"`+name+`"`), &i) != nil) // unknown indication read
		var s verdict.SubIndication
		is.True(json.Unmarshal([]byte(`"`+name+`"`), &s) != nil) // unknown sub-indication read
		is.True(xml.Unmarshal([]byte(`<v>`+name+`</v>`), &s) != nil)
	}
	// An indication is no sub-indication, and the other way round.
	is := is.New(t)
	var s verdict.SubIndication
	is.True(json.Unmarshal([]byte(`"TOTAL_PASSED"`), &s) != nil)
	var i verdict.Indication
	is.True(json.Unmarshal([]byte(`"HASH_FAILURE"`), &i) != nil)
}

// A summary reads back as it was written, its sub-indication's null
// included.
func TestSignatureReportRoundTrip(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	in := []verdict.SignatureReport{
		{SignatureID: "S-1", Indication: verdict.TotalPassed},
		{SignatureID: "S-2", Indication: verdict.Indeterminate, SubIndication: sub(verdict.SubTryLater)},
	}
	raw, err := json.Marshal(in)
	is.NoErr(err)
	var out []verdict.SignatureReport
	is.NoErr(json.Unmarshal(raw, &out))
	is.Equal(out, in)
	is.True(json.Unmarshal([]byte(`[{"indication":"TOTAL_PASSED","subIndication":"NOT_A_SUB_INDICATION"}]`), &out) != nil)
}
