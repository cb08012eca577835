// Package pades reads the signatures and document time-stamps of a PDF
// (ETSI EN 319 142-1; ISO 32000-2, 12.8): the signature fields of the
// AcroForm, each signature's byte range and the revision it covers, the
// CMS inside (read by package cades), the document security stores and
// the level the document's structure shows.
//
// It also reports what later incremental updates changed after each
// signature (modification.go, pageprint.go, annotation.go): what the
// signed pages show is compared by value with the document as delivered,
// annotations by what they draw, the catalog and the form by their
// entries, and DocMDP and FieldMDP permissions as the certification
// signature signed them (docs/decisions/0020). A problem that makes the
// signed document other than the one shown is marked as a format failure
// (ades.Problem.FormatFailure); the rest are findings the process turns
// into warnings. Objects are read by package pdf; limits.go bounds what a
// document may make the reader do.
package pades
