package validation_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/validationtest"
)

// The examples validate documents signed by the test kit of package
// fixtures/validationtest against its trusted lists, at its fixed time:
// an importer's test does the same with validationtest.Start(t).

// Validating a CAdES signature offline: the kit's trusted lists come
// from files, and the signature is LT, so it carries the revocation data
// that proves its certificate good at the time.
func Example() {
	kit, err := validationtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer kit.Close()
	ctx := context.Background()

	v, err := validation.New(ctx, append(kit.Options(), validation.Offline())...)
	if err != nil {
		log.Fatal(err)
	}
	doc, err := kit.Sign(validationtest.CAdES, validationtest.Signature{Level: cades.LT, Detached: true})
	if err != nil {
		log.Fatal(err)
	}
	res, err := v.Validate(ctx, doc)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("signatures:", res.Summary.SignatureCount)
	for _, s := range res.Summary.Signatures {
		fmt.Println(s.SignatureFormat, s.Indication, s.TrustFramework, *s.AnchorCountry, *s.EIDASQualification)
	}
	// Output:
	// signatures: 1
	// CAdES_BASELINE_LT TOTAL_PASSED EU_EIDAS DE QESIG
}

// Validating a PAdES document: a failed signature is a result, not an
// error. The second document is the first with a byte of its page
// changed after signing.
func ExampleValidator_Validate() {
	kit, err := validationtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer kit.Close()
	ctx := context.Background()

	v, err := validation.New(ctx, append(kit.Options(), validation.Offline())...)
	if err != nil {
		log.Fatal(err)
	}
	signed, err := kit.Sign(validationtest.PAdES, validationtest.Signature{Level: cades.LTA})
	if err != nil {
		log.Fatal(err)
	}
	changed := signed
	if changed.Data, err = pades.TamperSignedByte(signed.Data); err != nil {
		log.Fatal(err)
	}
	for _, doc := range []validation.Document{signed, changed} {
		res, err := v.Validate(ctx, doc)
		if err != nil {
			log.Fatal(err)
		}
		s := res.Summary.Signatures[0]
		fmt.Println(res.Summary.SignatureCount, s.SignatureFormat, s.Indication, subIndication(s), s.TrustFramework, *s.EIDASQualification)
	}
	// Output:
	// 1 PAdES_BASELINE_LTA TOTAL_PASSED - EU_EIDAS QESIG
	// 1 PAdES_BASELINE_LTA TOTAL_FAILED HASH_FAILURE EU_EIDAS NOT_ADES_QC_QSCD
}

// subIndication prints a signature's sub-indication, "-" for none.
func subIndication(s verdict.SignatureReport) string {
	if s.SubIndication == nil {
		return "-"
	}
	return string(*s.SubIndication)
}

// New takes options as values; one it cannot use is an error that names
// it. Without trust options nothing is trusted, so a genuine signature
// reaches no anchor.
func ExampleNew() {
	kit, err := validationtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer kit.Close()
	ctx := context.Background()

	_, err = validation.New(ctx, validation.WithTime(time.Time{}))
	fmt.Println(err)

	v, err := validation.New(ctx, validation.WithTime(kit.Time), validation.Offline())
	if err != nil {
		log.Fatal(err)
	}
	doc, err := kit.Sign(validationtest.CAdES, validationtest.Signature{Level: cades.LTA})
	if err != nil {
		log.Fatal(err)
	}
	res, err := v.Validate(ctx, doc)
	if err != nil {
		log.Fatal(err)
	}
	s := res.Summary.Signatures[0]
	fmt.Println(s.Indication, subIndication(s), s.TrustFramework)
	// Output:
	// validation: WithTime: zero time
	// INDETERMINATE NO_CERTIFICATE_CHAIN_FOUND UNKNOWN
}

// Trusting the lists in files: a list of trusted lists, the member
// lists it points to and the Swiss list, each checked as a refresh
// checks a download, the LOTL and the Swiss list against the
// certificates given. A Swiss qualified signature, time-stamped by a
// Swiss qualified time-stamping unit, comes out under ZertES, equivalent
// to a handwritten one.
func ExampleWithTrustedListFiles() {
	kit, err := validationtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer kit.Close()
	ctx := context.Background()

	v, err := validation.New(ctx,
		validation.WithTrustedListFiles(kit.ListSigners(), kit.ListFiles()...),
		validation.WithTime(kit.Time),
		validation.WithClock(func() time.Time { return kit.Time }),
		validation.Offline(),
	)
	if err != nil {
		log.Fatal(err)
	}
	doc, err := kit.Sign(validationtest.PAdES, validationtest.Signature{Level: cades.LT, Signer: kit.PKI.SignerCHQES, TSA: kit.PKI.TSACH})
	if err != nil {
		log.Fatal(err)
	}
	res, err := v.Validate(ctx, doc)
	if err != nil {
		log.Fatal(err)
	}
	s := res.Summary.Signatures[0]
	fmt.Println(s.SignatureFormat, s.Indication, s.TrustFramework, *s.AnchorCountry, *s.SwissQualification, "handwritten:", *s.HandwrittenEquivalent)
	// Output:
	// PAdES_BASELINE_LT TOTAL_PASSED CH_ZERTES CH QES handwritten: true
}

// The trust status is what GET /api/trust-status answers: the aggregate
// state and each list's, with whether its own signature was checked.
func ExampleValidator_TrustStatus() {
	kit, err := validationtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer kit.Close()

	v, err := validation.New(context.Background(), kit.Options()...)
	if err != nil {
		log.Fatal(err)
	}
	td := v.TrustStatus(kit.Time)
	fmt.Println("state:", td.State, "current:", td.Current, "authenticated:", td.AnchorDataAuthenticated)
	for _, l := range td.Lists {
		fmt.Println(l.Territory, l.Kind, l.Framework, l.Authenticity, l.State)
	}
	// Output:
	// state: CURRENT current: true authenticated: true
	// EU LOTL EU_EIDAS VALID CURRENT
	// DE TL EU_EIDAS VALID CURRENT
	// FR TL EU_EIDAS VALID CURRENT
	// CH TL CH_ZERTES VALID CURRENT
}

// Refresh downloads the lists of WithEULOTL and WithSwissList, here
// those the kit publishes on 127.0.0.1: until the first pass, nothing
// is trusted.
func ExampleValidator_Refresh() {
	kit, err := validationtest.New()
	if err != nil {
		log.Fatal(err)
	}
	defer kit.Close()
	ctx := context.Background()

	v, err := validation.New(ctx, kit.OnlineOptions()...)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("before:", v.TrustStatus(kit.Time).State)
	v.Refresh(ctx)
	td := v.TrustStatus(kit.Time)
	fmt.Println("after:", td.State, len(td.Lists), "lists")
	// Output:
	// before: NEVER_LOADED
	// after: CURRENT 4 lists
}
