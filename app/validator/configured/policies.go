package configured

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/svc-dss/dss/adapters/cryptosuite"
	"github.com/svc-dss/dss/adapters/policy"
	"github.com/svc-dss/dss/app/config"
)

// Policies are the validation policies a validator knows
// (docs/decisions/0042-validation-policy.md): the default one, and the
// named ones of the policy directory, the default among them by its
// name.
type Policies struct {
	Default policy.Policy
	named   map[string]policy.Policy
}

// LoadPolicies reads the policies cfg names: svc.dss.validator.policy.default
// (else the embedded default) and the files of
// svc.dss.validator.policy.directory. Its error names the file, the
// place in it and the problem, in one line (a *policy.Error), or two
// policies of one name.
func LoadPolicies(cfg config.Validator) (Policies, error) {
	ps := Policies{Default: policy.Default(), named: map[string]policy.Policy{}}
	if f := cfg.Policy.Default; f != "" {
		p, err := policy.Load(f, cryptosuite.Parse)
		if err != nil {
			return Policies{}, err
		}
		ps.Default = p
	}
	ps.named[ps.Default.Name] = ps.Default
	if d := cfg.Policy.Directory; d != "" {
		list, err := policy.LoadDirectory(d, cryptosuite.Parse)
		if err != nil {
			return Policies{}, err
		}
		for _, p := range list {
			if q, ok := ps.named[p.Name]; ok && q.Digest != p.Digest {
				where := q.File
				if where == "" {
					where = "the embedded default"
				}
				return Policies{}, &policy.Error{File: p.File, Path: "name", Problem: fmt.Sprintf("%q is already the name of %s", p.Name, where)}
			}
			ps.named[p.Name] = p
		}
	}
	return ps, nil
}

// Names are the names of the policies, sorted.
func (ps Policies) Names() []string { return slices.Sorted(maps.Keys(ps.named)) }

// Lookup is the policy named name, or an *UnknownPolicyError.
func (ps Policies) Lookup(name string) (policy.Policy, error) {
	p, ok := ps.named[name]
	if !ok {
		return policy.Policy{}, &UnknownPolicyError{Name: name, Known: ps.Names()}
	}
	return p, nil
}

// An UnknownPolicyError is a request or a tenant naming a policy the
// validator does not know; Known are the names it knows.
type UnknownPolicyError struct {
	Name  string
	Known []string
}

func (e *UnknownPolicyError) Error() string {
	return fmt.Sprintf("unknown validation policy %q: the policies are %s", e.Name, strings.Join(e.Known, ", "))
}
