package pades

import (
	"bytes"
	"crypto/x509"
	"fmt"
	"math/big"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/crl"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
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
	// crlIssuers and ocspSerials are the issuers of the CRLs and the
	// serial numbers the OCSP responses are about, once indexed.
	crlIssuers  [][]byte
	ocspSerials []*big.Int
	indexed     bool
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
// about c, a certificate the document carries (carried: the signature's,
// a time-stamp token's, the stores'): an OCSP response about its serial
// number, or a CRL of its issuer whose certificate the document carries
// too, so that the CRL can be checked at all (DSS takes no revocation
// data it cannot verify: pades-010's store holds the CRL of its TSA's CA
// but not that CA's certificate, and DSS calls it T). It depends on the
// document alone: a certificate the document does not carry (found among
// the validator's certificates, ports.Document.Certificates) has no data
// here. Whether the data is usable, and whether the rest of the chain is
// covered, is the process's question (etsi:
// LEVEL_NOT_SUPPORTED_BY_EVIDENCE).
func (d *dssData) holdsRevocationOf(c *x509.Certificate, carried []*x509.Certificate) bool {
	if c == nil || !slices.ContainsFunc(carried, c.Equal) {
		return false
	}
	d.index()
	issuerCarried := slices.ContainsFunc(carried, func(i *x509.Certificate) bool { return bytes.Equal(i.RawSubject, c.RawIssuer) })
	return issuerCarried && slices.ContainsFunc(d.crlIssuers, func(issuer []byte) bool { return bytes.Equal(issuer, c.RawIssuer) }) ||
		slices.ContainsFunc(d.ocspSerials, func(serial *big.Int) bool { return serial.Cmp(c.SerialNumber) == 0 })
}

// index parses the stored CRLs and OCSP responses, once, for
// holdsRevocationOf: their issuers and serial numbers.
func (d *dssData) index() {
	if d.indexed {
		return
	}
	d.indexed = true
	for _, der := range d.crls {
		if l, err := crl.Parse(der); err == nil {
			d.crlIssuers = append(d.crlIssuers, l.RawIssuer)
		}
	}
	for _, der := range d.ocsps {
		if r, err := ocsp.ParseResponse(der); err == nil && r.Basic != nil {
			for _, sr := range r.Basic.Responses {
				if sr.CertID.SerialNumber != nil {
					d.ocspSerials = append(d.ocspSerials, sr.CertID.SerialNumber)
				}
			}
		}
	}
}
