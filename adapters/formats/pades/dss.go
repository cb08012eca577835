package pades

import (
	"crypto/x509"
	"fmt"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/internal/validationdata"
	"github.com/svc-dss/dss/adapters/formats/pdf"
	"github.com/svc-dss/dss/domain/ades"
)

// dssData is the document security store (ETSI EN 319 142-1, 5.4.2) as
// every revision of the document wrote it: a later update may rewrite the
// store without data an earlier one held, and what was once in the
// document is evidence all the same (as DSS reads it).
type dssData struct {
	// versions are where each version of the /DSS dictionary (or the
	// catalog holding it) was written, ascending.
	versions    []int
	certs       []*x509.Certificate
	crls, ocsps [][]byte
	problems    []ades.Problem
	// seen are the streams read, by where they were written.
	seen map[pdf.Location]bool
	// full is set once a kind of data reached MaxDSSEntries.
	full map[string]bool
	// revocations is what the CRLs and OCSP responses are about, once
	// read (holdsRevocationOf).
	revocations *validationdata.Revocations
}

// after is where the first version of the store written at or after end
// starts, -1 when there is none.
func (d *dssData) after(end int) int {
	i, _ := slices.BinarySearch(d.versions, end)
	if i == len(d.versions) {
		return -1
	}
	return d.versions[i]
}

// dss reads /DSS of the catalog of every revision: /Certs, /CRLs and
// /OCSPs, and those of each /VRI entry (a writer may put data there
// only). Every signature gets all of it, which the process filters by
// certificate.
func (rd *reading) dss() *dssData {
	out := &dssData{seen: map[pdf.Location]bool{}, full: map[string]bool{}}
	ends := rd.pdf.Revisions()
	for _, end := range ends {
		f := rd.pdf
		if end < len(rd.data) {
			var err error
			if f, err = rd.revisionAt(end); err != nil || f.Repaired() {
				continue // not a revision after all (an embedded file's %%EOF)
			}
		}
		out.read(f)
	}
	if ends == nil { // a repaired file: only its final state is known
		out.read(rd.pdf)
	}
	slices.Sort(out.versions)
	out.versions = slices.Compact(out.versions)
	return out
}

// read adds the store of the revision f.
func (d *dssData) read(f *pdf.File) {
	root, err := f.Catalog()
	if err != nil {
		return
	}
	obj, ok := root.Find("DSS")
	if !ok {
		return
	}
	dict, err := f.Dict(obj)
	if err != nil || dict == nil {
		return
	}
	at := f.Where(refNumber(obj, f.RootRef())).Offset
	d.versions = append(d.versions, int(max(0, at)))
	d.entries(f, dict, "Certs", "CRLs", "OCSPs")
	vri, _ := f.Dict(dict["VRI"])
	for _, e := range vri {
		if v, _ := f.Dict(e); v != nil {
			d.entries(f, v, "Cert", "CRL", "OCSP")
		}
	}
}

// refNumber is the object number of o, or of holder when o is direct.
func refNumber(o types.Object, holder *types.IndirectRef) int {
	if r, ok := o.(types.IndirectRef); ok {
		return r.ObjectNumber.Value()
	}
	if holder != nil {
		return holder.ObjectNumber.Value()
	}
	return 0
}

// entries reads the streams of the arrays certs, crls and ocsps of dict.
func (d *dssData) entries(f *pdf.File, dict types.Dict, certs, crls, ocsps string) {
	for _, key := range []string{certs, crls, ocsps} {
		arr, err := f.Array(dict[key])
		if err != nil {
			continue
		}
		for _, o := range arr {
			ref, ok := o.(types.IndirectRef)
			if !ok {
				continue // a stream is always indirect
			}
			loc := f.Where(ref.ObjectNumber.Value())
			if d.seen[loc] {
				continue
			}
			d.seen[loc] = true
			b, err := f.Stream(o, MaxDSSStreamBytes)
			if err != nil {
				d.problems = append(d.problems, ades.Problem{Code: CodeDSSUnreadable, Message: fmt.Sprintf("/DSS /%s: a stream does not read: %v", key, err)})
				continue
			}
			switch key {
			case certs:
				if d.room("certificates", len(d.certs)) {
					if c, err := cert.Parse(b); err == nil {
						d.certs = append(d.certs, c)
					} else {
						d.problems = append(d.problems, ades.Problem{Code: CodeDSSUnreadable, Message: fmt.Sprintf("/DSS /%s: %v", key, err)})
					}
				}
			case crls:
				if d.room("CRLs", len(d.crls)) {
					d.crls = append(d.crls, b)
				}
			default:
				if d.room("OCSP responses", len(d.ocsps)) {
					d.ocsps = append(d.ocsps, b)
				}
			}
		}
	}
}

// room reports whether another entry of a kind holding n fits, and says
// once when it does not.
func (d *dssData) room(kind string, n int) bool {
	if n < MaxDSSEntries {
		return true
	}
	if !d.full[kind] {
		d.full[kind] = true
		d.problems = append(d.problems, ades.Problem{Code: CodeLimitExceeded, Message: fmt.Sprintf("/DSS: %s beyond %d left out", kind, MaxDSSEntries)})
	}
	return false
}

// holdsRevocationOf reports whether the stores hold revocation data
// about c, a certificate the document carries (validationdata.Revocations).
func (d *dssData) holdsRevocationOf(c *x509.Certificate, carried []*x509.Certificate) bool {
	if d.revocations == nil {
		r := validationdata.RevocationsOf(d.crls, d.ocsps)
		d.revocations = &r
	}
	return d.revocations.About(c, carried)
}
