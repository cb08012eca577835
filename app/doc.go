// Package app wires the adapters to the domain and holds the use cases of
// the two programs: [Validator] for the validation service and [Signer] for
// the signing server. The servers call it and nothing else.
package app
