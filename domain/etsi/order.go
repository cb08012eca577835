package etsi

import (
	"fmt"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
)

// Time-stamps ordering (EN 319 102-1, 5.5.4 and 5.6.3; DSS's "time-stamp
// coherence order" check of its validation process for signatures with
// long-term validation data). Each kind of time-stamp covers what the
// kinds before it cover, so they must have been generated in that order:
// content time-stamps, then signature time-stamps, then validation-data
// time-stamps, then archive time-stamps. Equal times are coherent, and
// so are time-stamps of the same kind in any order: the rule compares
// the latest time-stamp of an earlier kind with the earliest of a later
// one, as DSS's check does (docs/decisions/0018, "Time-stamps ordering").
//
// Only intact time-stamps count (imprint matching, token signature
// verifying): a broken one gives no proof of existence and its genTime
// is not authenticated, so it contradicts nothing. Whether its TSA is
// trusted does not matter: an intact token still says when it was made.

// orderRank is the place of a kind of time-stamp in the order; 0 for a
// kind outside it.
func orderRank(t ades.TimestampType) int {
	switch t {
	case ades.ContentTimestamp:
		return 1
	case ades.SignatureTimestamp:
		return 2
	case ades.ValidationDataTimestamp:
		return 3
	case ades.ArchiveTimestamp:
		return 4
	}
	return 0
}

// disorder returns why tss contradict each other, naming the first pair
// in document order whose later kind was generated before the earlier
// kind; "" when they are in order.
func disorder(tss []ades.Timestamp) string {
	intact := func(ts ades.Timestamp) bool {
		return ts.Imprint.Done && ts.Imprint.Valid && ts.Value.Done && ts.Value.Valid
	}
	for i, a := range tss {
		if !intact(a) || orderRank(a.Type) == 0 {
			continue
		}
		for j, b := range tss {
			if !intact(b) || orderRank(b.Type) <= orderRank(a.Type) || !b.GenTime.Before(a.GenTime) {
				continue
			}
			return fmt.Sprintf("%s %d, generated at %s, precedes %s %d, generated at %s, which it must follow",
				typeName(b.Type), j+1, stamp(b.GenTime), typeName(a.Type), i+1, stamp(a.GenTime))
		}
	}
	return ""
}

// timestampsOrdered is the check of the ordering.
const timestampsOrdered = "Are the time-stamps in order (content, signature, validation-data, archive)?"

// order checks the time-stamps' order in the validation with time, when
// the basic validation's conclusion is one a proof of existence may
// change or TOTAL_PASSED (5.5.4, as DSS runs its check before it looks
// at proofs of existence). It returns the outcome
// INDETERMINATE/TIMESTAMP_ORDER_FAILURE and false when they contradict
// each other; else basic and true, the check recorded in st.
func (v *validation) order(basic outcome, st *Stage) (outcome, bool) {
	switch {
	case basic.indication == verdict.TotalPassed:
	case basic.sub == verdict.SubRevokedNoPOE, basic.sub == verdict.SubRevokedCANoPOE, basic.sub == verdict.SubOutOfBoundsNoPOE, basic.sub == verdict.SubTryLater:
	default:
		return basic, true
	}
	if v.disorder == "" {
		if len(v.sig.Timestamps) > 1 {
			st.Checks = append(st.Checks, Check{Name: timestampsOrdered, Status: OK, Message: "the intact time-stamps are in order"})
		}
		return basic, true
	}
	msg := verdict.Say(string(verdict.SubTimestampOrderFailure), "order", "the time-stamps contradict each other: "+v.disorder, verdict.TextParam("Detail", v.disorder))
	st.Checks = append(st.Checks, Check{Name: timestampsOrdered, Status: NotOK, Code: string(verdict.SubTimestampOrderFailure), Message: msg.Message})
	return outcome{indication: verdict.Indeterminate, sub: verdict.SubTimestampOrderFailure, message: msg}, false
}
