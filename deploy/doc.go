// Package deploy holds no code: it is where the container images
// (validator/Dockerfile, signer/Dockerfile) and the Kubernetes manifests
// (kustomize/base and its overlays) of the two programs live, and where
// their tests are, so that go test checks them offline like any other
// package. deploy/README.md says how to use them.
//
// The tests build every overlay in-process with sigs.k8s.io/kustomize/api
// and decode each object strictly into its k8s.io/api type. Those modules
// are imported by the tests only: no program links them
// (TestImagesBuildProductionPrograms checks it).
package deploy
