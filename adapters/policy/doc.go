// Package policy reads validation policy documents: the YAML file that
// names a policy, its cryptographic suite and the level of each check
// that is a matter of policy (docs/validation-policy.schema.json,
// docs/decisions/0042-validation-policy.md), into the plain values the
// process applies (etsi.Constraints). It embeds the default policy, the
// one used when nothing is configured.
package policy
