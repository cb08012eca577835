package cades

import (
	"encoding/asn1"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/domain/ades"
)

// attributes fills ClaimedSigningTime, CommitmentTypes and PolicyID from
// the signed attributes of si.
func (rd *reading) attributes(sig *ades.Signature, si *cms.SignerInfo) {
	bad := func(format string, args ...any) {
		sig.Problems = append(sig.Problems, ades.Problem{Code: CodeMalformedAttribute, Message: fmt.Sprintf(format, args...)})
	}
	if t, ok, err := si.SigningTime(); err != nil {
		bad("signing-time: %v", err)
	} else if ok {
		sig.ClaimedSigningTime = t
	}

	// CommitmentTypeIndication ::= SEQUENCE {
	//   commitmentTypeId OBJECT IDENTIFIER, commitmentTypeQualifier ... OPTIONAL }
	for _, a := range si.SignedAttrs.Find(OIDAttrCommitmentType) {
		for _, v := range a.Values {
			if len(sig.CommitmentTypes) == MaxAttributeItems {
				break
			}
			in := cryptobyte.String(v)
			var seq cryptobyte.String
			var oid asn1.ObjectIdentifier
			if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.ReadASN1ObjectIdentifier(&oid) {
				bad("commitment-type-indication value")
				continue
			}
			sig.CommitmentTypes = append(sig.CommitmentTypes, oid.String())
		}
	}

	// SignaturePolicyIdentifier ::= CHOICE {
	//   signaturePolicyId SignaturePolicyId, signaturePolicyImplied NULL }
	// SignaturePolicyId ::= SEQUENCE { sigPolicyId OBJECT IDENTIFIER, ... }
	if v, ok, err := si.SignedAttrs.Single(OIDAttrSignaturePolicy); err != nil {
		bad("signature-policy-identifier: %v", err)
	} else if ok {
		in := cryptobyte.String(v)
		var seq cryptobyte.String
		var oid asn1.ObjectIdentifier
		switch {
		case in.PeekASN1Tag(cbasn1.NULL):
			// implied: PolicyID stays empty
		case in.ReadASN1(&seq, cbasn1.SEQUENCE) && seq.ReadASN1ObjectIdentifier(&oid):
			sig.PolicyID = oid.String()
		default:
			bad("signature-policy-identifier value")
		}
	}
}
