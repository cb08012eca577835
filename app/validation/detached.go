package validation

import (
	"fmt"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// warnUnsignedParts puts on every report the warning
// DETACHED_PART_NOT_SIGNED for each of parts that no signature of sigs
// covers (no data object of it is that part, intact), in upload order. A
// part is known by its position, not its name, so that two parts of the
// same name are told apart.
func warnUnsignedParts(reports []verdict.SignatureReport, parts []ports.Detached, sigs []ades.Signature) {
	if len(parts) == 0 {
		return
	}
	covered := make([]bool, len(parts))
	for _, sig := range sigs {
		for _, d := range sig.DataObjects {
			if d.Part > 0 && d.Part <= len(parts) && d.Intact {
				covered[d.Part-1] = true
			}
		}
	}
	var warnings []verdict.Message
	for i, p := range parts {
		if covered[i] {
			continue
		}
		name := p.Name
		if name == "" { // as the readers name it
			name = fmt.Sprintf("detached part %d", i+1)
		}
		warnings = append(warnings, verdict.DetachedPartNotSigned(name))
	}
	for i := range reports {
		reports[i].Warnings = append(reports[i].Warnings, warnings...)
	}
}
