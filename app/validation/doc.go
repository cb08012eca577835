// Package validation is the front door of the validation core: it
// validates signed documents (the formats of the registry
// adapters/formats) with the ETSI EN 319 102-1 process against one trust
// snapshot, and reports per signature the indication, the trust framework
// and the qualification, with the detailed and ETSI TS 119 102-2 reports
// (validation-service.md §1).
//
// [New] builds a [Validator] from options, which are values: the trusted
// lists ([WithEULOTL], [WithSwissList]) read from the validation
// service's cache ([WithListCache], read only) or downloaded by
// [Validator.Refresh]; lists given as files ([WithTrustedListFiles]);
// private anchors ([WithPrivateAnchors], [WithPrivateCADirectory]);
// untrusted certificates ([WithCertificates]); how revocation data is
// fetched ([Offline], [WithEgress]); the validation time ([WithTime],
// [WithClock]); the logger; the formats read ([WithFormats]). An option
// New cannot use is an [OptionError] that names it. Over the service's
// own cache ([WithListStore]), [Validator.Import] stores list files
// copied from a connected machine, each checked as a refresh checks it
// (the air-gapped installation).
//
//	v, err := validation.New(ctx, validation.Offline())
//	...
//	res, err := v.Validate(ctx, validation.Document{Name: "contract.pdf", Data: data})
//	...
//	fmt.Println(res.Summary.Signatures[0].Indication)
//
// A failed signature is a result, not an error: Validate's error is for a
// document that cannot be validated (errors.Is(err, [ErrUnreadable])) or
// for a failure of the validator. One Validator is safe for concurrent
// use; New starts no goroutine, timer or listener, and Refresh swaps the
// trust snapshot atomically under running validations.
//
// The test kit github.com/svc-dss/dss/fixtures/validationtest starts a
// fixture PKI and signed trusted lists on 127.0.0.1 and hands back the
// options that trust them.
//
// # Non-goals
//
// Validation knows no tenant, session, licence nor schedule: the
// validation service ([github.com/svc-dss/dss/app/validator]) builds its
// Validator from its configuration, authenticates the caller, keeps the
// browser UI's sessions and refreshes the trust store on its schedule.
// This package links none of that, nor a database driver, Echo, OIDC,
// PKCS#11 or cgo (TestLinksNoService).
package validation
