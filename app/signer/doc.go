// Package signer is the signing server's application: the use cases of
// servers/signer. [New] wires a [Signer] from the typed configuration;
// [Signer.Sign] runs one sign-ska call (signing-server.md): the caller's
// JWT verified with the key it registered in the control database, the
// body's tenant and module against it, the dss licence and the dss.sign
// permission, the tenant's HSM partition, then the digests signed under
// one SKA approval. The signing rules themselves are
// [github.com/svc-dss/dss/domain/signing].
//
// # Non-goals
//
// The signer signs digests it is given: it reads no document, no trusted
// list and validates no signature. It imports nothing of validation
// ([github.com/svc-dss/dss/app/validator], the document readers, the
// trusted-list adapters, the scheduler), and servers/signer's
// TestLinksNoValidation holds it to that.
package signer
