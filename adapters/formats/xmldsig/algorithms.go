package xmldsig

import (
	"crypto"
	_ "crypto/sha1" // registers crypto.SHA1 for the rsa-sha1 / sha1 URIs
	_ "crypto/sha256"
	_ "crypto/sha3"
	_ "crypto/sha512"
)

// Namespaces.
const (
	NamespaceDSig     = "http://www.w3.org/2000/09/xmldsig#"
	NamespaceDSigMore = "http://www.w3.org/2007/05/xmldsig-more#"
	NamespaceExcC14N  = "http://www.w3.org/2001/10/xml-exc-c14n#"
	NamespaceXAdES132 = "http://uri.etsi.org/01903/v1.3.2#"
	NamespaceXAdES111 = "http://uri.etsi.org/01903/v1.1.1#"
	namespaceXML      = "http://www.w3.org/XML/1998/namespace"
	namespaceXMLNS    = "http://www.w3.org/2000/xmlns/"
)

// Canonicalisation algorithm URIs, usable as CanonicalizationMethod and as
// Transform algorithms.
const (
	C14N10              = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315"
	C14N10WithComments  = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments"
	C14N11              = "http://www.w3.org/2006/12/xml-c14n11"
	C14N11WithComments  = "http://www.w3.org/2006/12/xml-c14n11#WithComments"
	ExcC14N             = "http://www.w3.org/2001/10/xml-exc-c14n#"
	ExcC14NWithComments = "http://www.w3.org/2001/10/xml-exc-c14n#WithComments"
)

// Transform algorithm URIs other than canonicalisation.
const (
	TransformEnveloped = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"
)

// Digest algorithm URIs (DigestMethod).
const (
	DigestSHA1     = "http://www.w3.org/2000/09/xmldsig#sha1"
	DigestSHA224   = "http://www.w3.org/2001/04/xmldsig-more#sha224"
	DigestSHA256   = "http://www.w3.org/2001/04/xmlenc#sha256"
	DigestSHA384   = "http://www.w3.org/2001/04/xmldsig-more#sha384"
	DigestSHA512   = "http://www.w3.org/2001/04/xmlenc#sha512"
	DigestSHA3_224 = "http://www.w3.org/2007/05/xmldsig-more#sha3-224"
	DigestSHA3_256 = "http://www.w3.org/2007/05/xmldsig-more#sha3-256"
	DigestSHA3_384 = "http://www.w3.org/2007/05/xmldsig-more#sha3-384"
	DigestSHA3_512 = "http://www.w3.org/2007/05/xmldsig-more#sha3-512"
)

// Signature algorithm URIs (SignatureMethod).
const (
	SignatureRSASHA1   = "http://www.w3.org/2000/09/xmldsig#rsa-sha1"
	SignatureRSASHA224 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha224"
	SignatureRSASHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
	SignatureRSASHA384 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384"
	SignatureRSASHA512 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512"

	// RSASSA-PSS, RFC 6931 section 2.3.10: MGF1 with the same hash, salt
	// length equal to the hash length, trailer field 1.
	SignatureRSAPSSSHA224   = "http://www.w3.org/2007/05/xmldsig-more#sha224-rsa-MGF1"
	SignatureRSAPSSSHA256   = "http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1"
	SignatureRSAPSSSHA384   = "http://www.w3.org/2007/05/xmldsig-more#sha384-rsa-MGF1"
	SignatureRSAPSSSHA512   = "http://www.w3.org/2007/05/xmldsig-more#sha512-rsa-MGF1"
	SignatureRSAPSSSHA3_256 = "http://www.w3.org/2007/05/xmldsig-more#sha3-256-rsa-MGF1"
	SignatureRSAPSSSHA3_384 = "http://www.w3.org/2007/05/xmldsig-more#sha3-384-rsa-MGF1"
	SignatureRSAPSSSHA3_512 = "http://www.w3.org/2007/05/xmldsig-more#sha3-512-rsa-MGF1"

	// SignatureRSAPSS is the RFC 9231 form whose parameters (digest, salt
	// length) are carried in a pss:RSAPSSParams child of SignatureMethod.
	SignatureRSAPSS = "http://www.w3.org/2007/05/xmldsig-more#rsa-pss"

	SignatureECDSASHA1   = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha1"
	SignatureECDSASHA224 = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha224"
	SignatureECDSASHA256 = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"
	SignatureECDSASHA384 = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384"
	SignatureECDSASHA512 = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512"
)

// XAdES reference type and element names.
const (
	TypeSignedProperties = "http://uri.etsi.org/01903#SignedProperties"
)

var digestMethods = map[string]crypto.Hash{
	DigestSHA1:     crypto.SHA1,
	DigestSHA224:   crypto.SHA224,
	DigestSHA256:   crypto.SHA256,
	DigestSHA384:   crypto.SHA384,
	DigestSHA512:   crypto.SHA512,
	DigestSHA3_224: crypto.SHA3_224,
	DigestSHA3_256: crypto.SHA3_256,
	DigestSHA3_384: crypto.SHA3_384,
	DigestSHA3_512: crypto.SHA3_512,
}

type keyFamily int

const (
	familyRSA keyFamily = iota + 1
	familyRSAPSS
	familyECDSA
)

type signatureMethod struct {
	family keyFamily
	hash   crypto.Hash
}

// signatureMethods lists the algorithms whose parameters the URI fixes.
// SignatureRSAPSS is handled separately because its parameters are in the
// document. HMAC and DSA are deliberately absent: HMAC needs a shared secret
// a trusted list never has (and invites HMACOutputLength truncation attacks),
// DSA is obsolete.
var signatureMethods = map[string]signatureMethod{
	SignatureRSASHA1:        {familyRSA, crypto.SHA1},
	SignatureRSASHA224:      {familyRSA, crypto.SHA224},
	SignatureRSASHA256:      {familyRSA, crypto.SHA256},
	SignatureRSASHA384:      {familyRSA, crypto.SHA384},
	SignatureRSASHA512:      {familyRSA, crypto.SHA512},
	SignatureRSAPSSSHA224:   {familyRSAPSS, crypto.SHA224},
	SignatureRSAPSSSHA256:   {familyRSAPSS, crypto.SHA256},
	SignatureRSAPSSSHA384:   {familyRSAPSS, crypto.SHA384},
	SignatureRSAPSSSHA512:   {familyRSAPSS, crypto.SHA512},
	SignatureRSAPSSSHA3_256: {familyRSAPSS, crypto.SHA3_256},
	SignatureRSAPSSSHA3_384: {familyRSAPSS, crypto.SHA3_384},
	SignatureRSAPSSSHA3_512: {familyRSAPSS, crypto.SHA3_512},
	SignatureECDSASHA1:      {familyECDSA, crypto.SHA1},
	SignatureECDSASHA224:    {familyECDSA, crypto.SHA224},
	SignatureECDSASHA256:    {familyECDSA, crypto.SHA256},
	SignatureECDSASHA384:    {familyECDSA, crypto.SHA384},
	SignatureECDSASHA512:    {familyECDSA, crypto.SHA512},
}

// c14nMethod describes one canonicalisation algorithm URI.
type c14nMethod struct {
	kind     c14nKind
	comments bool
}

type c14nKind int

const (
	kindC14N10 c14nKind = iota + 1
	kindC14N11
	kindExcC14N
)

var c14nMethods = map[string]c14nMethod{
	C14N10:              {kindC14N10, false},
	C14N10WithComments:  {kindC14N10, true},
	C14N11:              {kindC14N11, false},
	C14N11WithComments:  {kindC14N11, true},
	ExcC14N:             {kindExcC14N, false},
	ExcC14NWithComments: {kindExcC14N, true},
}
