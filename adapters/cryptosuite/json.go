package cryptosuite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// readJSON reads the JSON form: the same element names as the XML form,
// under a root member "SecuritySuitabilityPolicy" (or
// "SecuritySuitabilityPolicyType", as early TS 119 312 drafts wrote).
// Member names are matched without regard to case ("Objectidentifier"
// circulates); a member that may repeat may be one object or an array;
// numbers may be written as strings.
func readJSON(data []byte) (document, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var top any
	if err := dec.Decode(&top); err != nil {
		return document{}, &Error{Problem: "not well-formed JSON: " + err.Error(), Err: err}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return document{}, problem("", "not well-formed JSON: data after the top-level object")
	}
	obj, _ := top.(map[string]any)
	root, ok := member(obj, "SecuritySuitabilityPolicy")
	if !ok {
		root, ok = member(obj, "SecuritySuitabilityPolicyType")
	}
	rootObj, isObj := root.(map[string]any)
	if !ok || !isObj {
		return document{}, problem("/", "the document holds no SecuritySuitabilityPolicy object")
	}
	doc := document{path: "/SecuritySuitabilityPolicy"}
	if pn, ok := member(rootObj, "PolicyName"); ok {
		pno, _ := pn.(map[string]any)
		doc.name, _ = scalar(pno, "Name")
		doc.version, _ = scalar(pno, "ObjectIdentifier")
	}
	issued, err := scalarAt(rootObj, "PolicyIssueDate", doc.path+"/PolicyIssueDate")
	if err != nil {
		return document{}, err
	}
	doc.issued = issued
	algs, _ := member(rootObj, "Algorithm")
	for i, a := range list(algs) {
		e := entry{path: fmt.Sprintf("%s/Algorithm[%d]", doc.path, i+1)}
		ao, ok := a.(map[string]any)
		if !ok {
			return document{}, problem(e.path, "an Algorithm is not an object")
		}
		idv, ok := member(ao, "AlgorithmIdentifier")
		id, isObj := idv.(map[string]any)
		if !ok || !isObj {
			return document{}, problem(e.path, "an Algorithm without its AlgorithmIdentifier object")
		}
		if e.name, err = scalarAt(id, "Name", e.path+"/AlgorithmIdentifier/Name"); err != nil {
			return document{}, err
		}
		if e.oids, err = scalars(id, "ObjectIdentifier", e.path+"/AlgorithmIdentifier/ObjectIdentifier"); err != nil {
			return document{}, err
		}
		if e.uris, err = scalars(id, "URI", e.path+"/AlgorithmIdentifier/URI"); err != nil {
			return document{}, err
		}
		evs, _ := member(ao, "Evaluation")
		for j, ev := range list(evs) {
			x := evaluation{path: fmt.Sprintf("%s/Evaluation[%d]", e.path, j+1)}
			evo, ok := ev.(map[string]any)
			if !ok {
				return document{}, problem(x.path, "an Evaluation is not an object")
			}
			ps, _ := member(evo, "Parameter")
			for k, p := range list(ps) {
				pp := parameter{path: fmt.Sprintf("%s/Parameter[%d]", x.path, k+1)}
				po, ok := p.(map[string]any)
				if !ok {
					return document{}, problem(pp.path, "a Parameter is not an object")
				}
				pp.minPath, pp.maxPath = pp.path+"/Min", pp.path+"/Max"
				if pp.name, err = scalarAt(po, "name", pp.path+"/name"); err != nil {
					return document{}, err
				}
				if pp.min, err = scalarAt(po, "Min", pp.minPath); err != nil {
					return document{}, err
				}
				if pp.max, err = scalarAt(po, "Max", pp.maxPath); err != nil {
					return document{}, err
				}
				x.parameters = append(x.parameters, pp)
			}
			if v, ok := member(evo, "Validity"); ok {
				vo, isObj := v.(map[string]any)
				if !isObj {
					return document{}, problem(x.path+"/Validity", "Validity is not an object")
				}
				x.startPath, x.endPath = x.path+"/Validity/Start", x.path+"/Validity/End"
				if x.start, err = scalarAt(vo, "Start", x.startPath); err != nil {
					return document{}, err
				}
				if x.end, err = scalarAt(vo, "End", x.endPath); err != nil {
					return document{}, err
				}
			}
			e.evaluations = append(e.evaluations, x)
		}
		doc.algorithms = append(doc.algorithms, e)
	}
	return doc, nil
}

// member is obj's member named name, matched without regard to case
// (the exact spelling first).
func member(obj map[string]any, name string) (any, bool) {
	if v, ok := obj[name]; ok {
		return v, true
	}
	for k, v := range obj {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}

// list is v as a list: its items, itself alone, or nothing.
func list(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return x
	}
	return []any{v}
}

// scalar is the string or number obj holds under name; ok is false when
// it holds something else.
func scalar(obj map[string]any, name string) (string, bool) {
	v, found := member(obj, name)
	if !found || v == nil {
		return "", true
	}
	switch x := v.(type) {
	case string:
		return trimSpace(x), true
	case json.Number:
		return x.String(), true
	}
	return "", false
}

// scalarAt is scalar with an error naming path.
func scalarAt(obj map[string]any, name, path string) (string, error) {
	s, ok := scalar(obj, name)
	if !ok {
		return "", problem(path, "is neither a string nor a number")
	}
	return s, nil
}

// scalars are the strings obj holds under name: one or an array.
func scalars(obj map[string]any, name, path string) ([]string, error) {
	v, _ := member(obj, name)
	var out []string
	for i, item := range list(v) {
		switch x := item.(type) {
		case string:
			if s := trimSpace(x); s != "" {
				out = append(out, s)
			}
		default:
			return nil, problem(fmt.Sprintf("%s[%d]", path, i+1), "is not a string")
		}
	}
	return out, nil
}

func trimSpace(s string) string { return strings.TrimSpace(s) }
