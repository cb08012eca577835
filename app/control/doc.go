// Package control holds what the applications of both programs, the
// validation service ([github.com/svc-dss/dss/app/validator]) and the
// signing server ([github.com/svc-dss/dss/app/signer]), share of the
// platform around them: opening the control database ([Open]), reading it
// through its bounded cache ([Cached]), the roll-up a health probe reports
// of it ([Probe]), and the bearer token of an Authorization header
// ([BearerToken]).
//
// # Non-goals
//
// It holds no use case and links no validation: no document reader, no
// trusted list, no scheduler. What is shared here is what a hash-only
// signer needs too.
package control
