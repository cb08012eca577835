package xmldsig

import (
	"bytes"
	"cmp"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/big"
	"time"

	"github.com/beevik/etree"
)

// SignOptions configures Sign. The zero value makes a plain XMLDSig
// signature with exclusive c14n and SHA-256.
type SignOptions struct {
	// XAdES adds a QualifyingProperties/SignedProperties object with
	// SigningTime and SigningCertificateV2, referenced from SignedInfo:
	// a XAdES-B-B signature, as trusted lists carry.
	XAdES bool
	// SigningTime is written as xades:SigningTime (in UTC, whole seconds).
	// Required with XAdES: Sign never reads the clock.
	SigningTime time.Time
	// Hash is the digest and signature hash: crypto.SHA256 (default),
	// crypto.SHA384 or crypto.SHA512; crypto.SHA1 with an RSA key, for
	// fixtures of lists that must be refused.
	Hash crypto.Hash
	// RSAPSS signs with RSASSA-PSS (shaNNN-rsa-MGF1) instead of PKCS #1
	// v1.5 when the key is RSA.
	RSAPSS bool
	// CanonicalizationMethod is used for SignedInfo and as the final
	// transform of every reference; default ExcC14N.
	CanonicalizationMethod string
	// ReferenceRootByID references the root element by its unprefixed Id
	// attribute ("#" and the Id, with the enveloped-signature transform)
	// instead of the whole document (URI ""), as some published lists do
	// (Belgium's of 2019, Peru's). The root must carry an Id.
	ReferenceRootByID bool
	// ID is the Id of ds:Signature; other Ids are derived from it. Default:
	// "id-" and a digest prefix of the document, so re-signing the same
	// document gives the same Ids.
	ID string
}

var (
	rsaPKCS1URI = map[crypto.Hash]string{crypto.SHA1: SignatureRSASHA1, crypto.SHA256: SignatureRSASHA256, crypto.SHA384: SignatureRSASHA384, crypto.SHA512: SignatureRSASHA512}
	rsaPSSURI   = map[crypto.Hash]string{crypto.SHA256: SignatureRSAPSSSHA256, crypto.SHA384: SignatureRSAPSSSHA384, crypto.SHA512: SignatureRSAPSSSHA512}
	ecdsaURI    = map[crypto.Hash]string{crypto.SHA256: SignatureECDSASHA256, crypto.SHA384: SignatureECDSASHA384, crypto.SHA512: SignatureECDSASHA512}
)

// Sign returns doc with an enveloped signature appended as the last child of
// its root element, made with key for the certificate chain[0]; the whole
// chain goes into KeyInfo/X509Data. The document bytes are kept as they are
// and the signature is inserted before the root end tag, so a fixture stays
// readable in a diff.
//
// Sign is for test fixtures and development; production lists are signed by
// their scheme operators.
func Sign(doc []byte, key crypto.Signer, chain []*x509.Certificate, opts SignOptions) ([]byte, error) {
	if len(chain) == 0 {
		return nil, errors.New("xmldsig: sign: no certificate")
	}
	if pub, ok := key.Public().(interface{ Equal(crypto.PublicKey) bool }); !ok || !pub.Equal(chain[0].PublicKey) {
		return nil, errors.New("xmldsig: sign: key does not match the first certificate")
	}
	if opts.XAdES && opts.SigningTime.IsZero() {
		return nil, errors.New("xmldsig: sign: XAdES needs a SigningTime")
	}
	hash := cmp.Or(opts.Hash, crypto.SHA256)
	c14n := cmp.Or(opts.CanonicalizationMethod, ExcC14N)
	digestAlg, ok := digestURI[hash]
	if !ok {
		return nil, fmt.Errorf("%w: sign with hash %v", ErrUnsupported, hash)
	}
	c14nOpts, err := newC14NOptions(c14n, nil)
	if err != nil {
		return nil, err
	}
	sigAlg, err := signatureURI(key.Public(), hash, opts.RSAPSS)
	if err != nil {
		return nil, err
	}

	tree, err := ParseDocument(doc)
	if err != nil {
		return nil, err
	}
	for _, tok := range tree.Child {
		if _, ok := tok.(*etree.Directive); ok {
			return nil, fmt.Errorf("%w: document with a DOCTYPE", ErrUnsupported) // Verify refuses them
		}
	}
	idx := indexDocument(tree)
	if len(idx.signatures) > 0 {
		return nil, fmt.Errorf("%w: the document is already signed", ErrMultipleSignatures)
	}

	// The enveloped-signature transform leaves the signature out, so the
	// document digest can be taken before the signature exists.
	docURI, docNode := "", &tree.Element
	if opts.ReferenceRootByID {
		rootID, ok := lookupAttr(tree.Root(), "Id")
		if !ok {
			return nil, fmt.Errorf("%w: sign: the root element has no Id to reference", ErrMalformedXML)
		}
		docURI, docNode = "#"+rootID, tree.Root()
	}
	docDigest, err := digestNode(docNode, c14nOpts, hash)
	if err != nil {
		return nil, err
	}
	id := cmp.Or(opts.ID, "id-"+hex.EncodeToString(docDigest[:6]))
	propsID := "xades-" + id
	for _, used := range []string{id, propsID, id + "-value"} {
		if len(idx.ids[used]) > 0 {
			return nil, fmt.Errorf("%w: Id %q is already used in the document", ErrDuplicateID, used)
		}
	}

	b := sigBuilder{c14n: c14n, digestAlg: digestAlg}
	sig := etree.NewElement("ds:Signature")
	sig.CreateAttr("xmlns:ds", NamespaceDSig)
	sig.CreateAttr("Id", id)
	si := sig.CreateElement("ds:SignedInfo")
	si.CreateElement("ds:CanonicalizationMethod").CreateAttr("Algorithm", c14n)
	si.CreateElement("ds:SignatureMethod").CreateAttr("Algorithm", sigAlg)
	b.reference(si, docURI, "", docDigest, TransformEnveloped, c14n)
	var propsDigest *etree.Element
	if opts.XAdES {
		propsDigest = b.reference(si, "#"+propsID, TypeSignedProperties, nil, c14n)
	}
	sigValue := sig.CreateElement("ds:SignatureValue")
	sigValue.CreateAttr("Id", id+"-value")
	x509Data := sig.CreateElement("ds:KeyInfo").CreateElement("ds:X509Data")
	for _, c := range chain {
		x509Data.CreateElement("ds:X509Certificate").SetText(base64.StdEncoding.EncodeToString(c.Raw))
	}
	var props *etree.Element
	if opts.XAdES {
		if props, err = b.signedProperties(sig, id, propsID, chain[0], hash, opts.SigningTime); err != nil {
			return nil, err
		}
	}

	// Digest and sign in place: the canonical forms of SignedProperties and
	// SignedInfo depend on the namespaces in scope where they will live.
	tree.Root().AddChild(sig)
	if props != nil {
		d, err := digestNode(props, c14nOpts, hash)
		if err != nil {
			return nil, err
		}
		propsDigest.SetText(base64.StdEncoding.EncodeToString(d))
	}
	signed, err := digestNode(si, c14nOpts, hash)
	if err != nil {
		return nil, err
	}
	value, err := signDigest(key, hash, signed, opts.RSAPSS)
	if err != nil {
		return nil, err
	}
	sigValue.SetText(base64.StdEncoding.EncodeToString(value))

	var out bytes.Buffer
	// Canonical escaping keeps tabs, newlines and CRs in values as
	// references, so the signature parses back to exactly this tree.
	sig.WriteTo(&out, &etree.WriteSettings{CanonicalEndTags: true, CanonicalText: true, CanonicalAttrVal: true})
	return insertBeforeRootEnd(doc, out.Bytes())
}

type sigBuilder struct {
	c14n, digestAlg string
}

// reference adds a ds:Reference and returns its DigestValue element.
func (b sigBuilder) reference(si *etree.Element, uri, typ string, digest []byte, transforms ...string) *etree.Element {
	ref := si.CreateElement("ds:Reference")
	if typ != "" {
		ref.CreateAttr("Type", typ)
	}
	ref.CreateAttr("URI", uri)
	ts := ref.CreateElement("ds:Transforms")
	for _, t := range transforms {
		ts.CreateElement("ds:Transform").CreateAttr("Algorithm", t)
	}
	ref.CreateElement("ds:DigestMethod").CreateAttr("Algorithm", b.digestAlg)
	dv := ref.CreateElement("ds:DigestValue")
	if digest != nil {
		dv.SetText(base64.StdEncoding.EncodeToString(digest))
	}
	return dv
}

// issuerSerial is RFC 5035 IssuerSerial, the content of IssuerSerialV2.
type issuerSerial struct {
	Issuer []asn1.RawValue // GeneralNames holding one directoryName
	Serial *big.Int
}

// signedProperties adds ds:Object/xades:QualifyingProperties and returns
// its xades:SignedProperties.
func (b sigBuilder) signedProperties(sig *etree.Element, id, propsID string, cert *x509.Certificate, hash crypto.Hash, at time.Time) (*etree.Element, error) {
	qp := sig.CreateElement("ds:Object").CreateElement("xades:QualifyingProperties")
	qp.CreateAttr("xmlns:xades", NamespaceXAdES132)
	qp.CreateAttr("Target", "#"+id)
	props := qp.CreateElement("xades:SignedProperties")
	props.CreateAttr("Id", propsID)
	ssp := props.CreateElement("xades:SignedSignatureProperties")
	ssp.CreateElement("xades:SigningTime").SetText(at.UTC().Format("2006-01-02T15:04:05Z"))

	certEl := ssp.CreateElement("xades:SigningCertificateV2").CreateElement("xades:Cert")
	cd := certEl.CreateElement("xades:CertDigest")
	cd.CreateElement("ds:DigestMethod").CreateAttr("Algorithm", b.digestAlg)
	h := hash.New()
	h.Write(cert.Raw)
	cd.CreateElement("ds:DigestValue").SetText(base64.StdEncoding.EncodeToString(h.Sum(nil)))
	is, err := asn1.Marshal(issuerSerial{
		Issuer: []asn1.RawValue{{Class: asn1.ClassContextSpecific, Tag: 4, IsCompound: true, Bytes: cert.RawIssuer}},
		Serial: cert.SerialNumber,
	})
	if err != nil {
		return nil, fmt.Errorf("xmldsig: sign: IssuerSerialV2: %w", err)
	}
	certEl.CreateElement("xades:IssuerSerialV2").SetText(base64.StdEncoding.EncodeToString(is))
	return props, nil
}

func signatureURI(pub crypto.PublicKey, hash crypto.Hash, pss bool) (string, error) {
	var table map[crypto.Hash]string
	switch pub.(type) {
	case *rsa.PublicKey:
		table = rsaPKCS1URI
		if pss {
			table = rsaPSSURI
		}
	case *ecdsa.PublicKey:
		table = ecdsaURI
	default:
		return "", fmt.Errorf("%w: sign with a %T key", ErrUnsupported, pub)
	}
	uri, ok := table[hash]
	if !ok {
		return "", fmt.Errorf("%w: sign with hash %v", ErrUnsupported, hash)
	}
	return uri, nil
}

func digestNode(node *etree.Element, opts c14nOptions, hash crypto.Hash) ([]byte, error) {
	data, err := canonicalize(node, opts)
	if err != nil {
		return nil, err
	}
	h := hash.New()
	h.Write(data)
	return h.Sum(nil), nil
}

// signDigest signs and returns the XML signature value: for ECDSA the
// fixed-width r||s, not crypto.Signer's ASN.1.
func signDigest(key crypto.Signer, hash crypto.Hash, digest []byte, pss bool) ([]byte, error) {
	var so crypto.SignerOpts = hash
	if _, isRSA := key.Public().(*rsa.PublicKey); isRSA && pss {
		so = &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: hash}
	}
	sig, err := key.Sign(rand.Reader, digest, so)
	if err != nil {
		return nil, fmt.Errorf("xmldsig: sign: %w", err)
	}
	pub, isEC := key.Public().(*ecdsa.PublicKey)
	if !isEC {
		return sig, nil
	}
	var rs struct{ R, S *big.Int }
	if rest, err := asn1.Unmarshal(sig, &rs); err != nil || len(rest) != 0 {
		return nil, fmt.Errorf("xmldsig: sign: ECDSA signature is not ASN.1 (r, s): %v", err)
	}
	size := (pub.Curve.Params().N.BitLen() + 7) / 8
	out := make([]byte, 2*size)
	rs.R.FillBytes(out[:size])
	rs.S.FillBytes(out[size:])
	return out, nil
}

// insertBeforeRootEnd inserts sig as the last content of the root element
// of doc, opening a self-closing root tag if needed.
func insertBeforeRootEnd(doc, sig []byte) ([]byte, error) {
	dec := xml.NewDecoder(bytes.NewReader(doc))
	dec.Strict = true
	dec.CharsetReader = charsetReader
	depth := 0
	var rootName xml.Name
	rootTagEnd := int64(-1)
	for {
		before := dec.InputOffset()
		tok, err := dec.RawToken()
		if err == io.EOF {
			return nil, fmt.Errorf("%w: no root end tag", ErrMalformedXML)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrMalformedXML, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				rootName, rootTagEnd = t.Name, dec.InputOffset()
			}
			depth++
		case xml.EndElement:
			if depth--; depth > 0 {
				continue
			}
			out := make([]byte, 0, len(doc)+len(sig)+len(rootName.Local)+len(rootName.Space)+4)
			if before == rootTagEnd && bytes.HasSuffix(doc[:before], []byte("/>")) {
				// <root .../> becomes <root ...>sig</root>.
				out = append(out, doc[:before-2]...)
				out = append(out, '>')
				out = append(out, sig...)
				out = append(out, "</"+qualified(rootName.Space, rootName.Local)+">"...)
				return append(out, doc[before:]...), nil
			}
			out = append(out, doc[:before]...)
			out = append(out, sig...)
			return append(out, doc[before:]...), nil
		}
	}
}
