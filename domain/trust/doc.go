// Package trust holds the trust store as the domain sees it: trusted lists
// (ETSI TS 119 612) parsed into values, their trust services with status
// history, the anchors they yield, private CA anchors, and the immutable
// snapshot one validation reads.
//
// # Vocabulary
//
// Service types and statuses are enums of this package, not URIs: the EU
// lists use the http://uri.etsi.org/TrstSvc/ namespace and the Swiss list
// may use https://uri.tsl-switzerland.ch/TrstSvc/. The trusted-list adapter
// maps both, by explicit table, into these enums and keeps the original URI
// beside them for reports.
//
// # Non-goals
//
// No parsing, no signature checking, no I/O: adapters produce List values,
// and authenticity arrives as an [Authenticity] outcome.
package trust
