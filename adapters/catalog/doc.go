// Package catalog holds the message catalogue: every sentence the
// validator shows people, in English, German, French and Italian, built
// on github.com/nicksnyder/go-i18n/v2 from one TOML file per language
// (docs/decisions/0038-messages-and-languages.md).
//
// A verdict's errors and warnings are rendered from their template ID
// and named parameters (verdict.Say); the English sentence the domain
// wrote is the English template's rendering, which the tests hold it to.
// The pages' texts are in the same files, under IDs that start with
// "ui.".
package catalog
