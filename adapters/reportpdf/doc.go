// Package reportpdf renders a validation summary as a PDF report to keep
// (A4): the document's name and SHA-256, the validation time, the trust
// data the verdict was judged against, and per signature what the
// verdict holds, with its errors and warnings (issue 23, "A report to
// keep"; docs/decisions/0037).
//
// It writes with github.com/signintech/gopdf and embeds subsets of the
// Go fonts (golang.org/x/image/font/gofont, BSD-licensed, as Go), so
// that every Latin letter, umlauts and accents included, renders and
// extracts as text. Every label of the report is in one table keyed by
// an ID (labels.go), so that a translation is a table per language.
//
// Render does not seal: a sealed report is the rendered one, told that
// it will be sealed, signed afterwards (package seal).
package reportpdf
