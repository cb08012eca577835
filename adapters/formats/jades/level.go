package jades

import "github.com/svc-dss/dss/domain/ades"

// levelFacts are what the level depends on.
type levelFacts struct {
	reference   bool // x5t#S256, x5t#o or sigX5ts in the protected header
	signatureTS int  // sigTst tokens that parsed
	values      bool // xVals or rVals with content
	archiveTS   int  // arcTst tokens that parsed
}

// level is the baseline level the structure shows (TS 119 182-1 6),
// each level including the previous one:
//
//   - no signing-certificate reference in the protected header: no
//     baseline level, JSON_NOT_ETSI as DSS names a plain JWS;
//   - B: a reference (a missing sigT is a problem, not a lower level);
//   - T: B and a sigTst whose token parses;
//   - LT: T and xVals or rVals with content;
//   - LTA: LT and an arcTst whose token parses.
//
// The level is about presence: a time-stamp whose imprint fails still
// counts; the process sees the failed checks.
func level(f levelFacts) (ades.Level, string) {
	if !f.reference {
		return ades.NotBaseline, formNotETSI
	}
	l := ades.LevelB
	if f.signatureTS > 0 {
		l = ades.LevelT
		if f.values {
			l = ades.LevelLT
			if f.archiveTS > 0 {
				l = ades.LevelLTA
			}
		}
	}
	return l, ""
}
