package validator

import (
	"context"
	"fmt"

	"github.com/svc-dss/dss/adapters/policy"
	"github.com/svc-dss/dss/app/validator/configured"
)

// Policies are the validation policies v knows.
func (v *Validator) Policies() configured.Policies { return v.policies }

// Policy is the policy named name (a request's part policy), or an
// *UnknownPolicyError.
func (v *Validator) Policy(name string) (policy.Policy, error) { return v.policies.Lookup(name) }

// PolicyOf is the policy of a validation for p that names none: the
// tenant's default when the control database names one, else the
// validator's default. An error is an infrastructure failure (the
// database, or a tenant naming a policy the validator does not have).
func (v *Validator) PolicyOf(ctx context.Context, p Principal) (policy.Policy, error) {
	return v.tenantPolicy(ctx, p)
}

// tenantPolicy is PolicyOf.
func (v *Validator) tenantPolicy(ctx context.Context, p Principal) (policy.Policy, error) {
	if v.auth == nil || v.auth.policies == nil || p.Tenant == "" || p.Development {
		return v.policies.Default, nil
	}
	name, err := v.auth.policies.ValidationPolicy(ctx, p.Tenant)
	if err != nil {
		return policy.Policy{}, fmt.Errorf("app: the validation policy of tenant %s: %w", p.Tenant, err)
	}
	if name == "" {
		return v.policies.Default, nil
	}
	pol, err := v.policies.Lookup(name)
	if err != nil {
		// The operator's configuration to fix, not the caller's request:
		// an infrastructure failure of this request (decision 0042).
		return policy.Policy{}, fmt.Errorf("app: tenant %s: %w", p.Tenant, tenantPolicyError{err})
	}
	return pol, nil
}

// tenantPolicyError is a tenant's default policy the validator does not
// know; it hides the *UnknownPolicyError, which answers 400, from the
// server: the caller did nothing wrong.
type tenantPolicyError struct{ err error }

func (e tenantPolicyError) Error() string { return e.err.Error() }
