package xades

import (
	"testing"

	"github.com/svc-dss/dss/domain/ades"
)

// TestLevel: EN 319 132-1 clause 6 from the structure, and the extended
// forms DSS names.
func TestLevel(t *testing.T) {
	t.Parallel()
	base := levelFacts{qualifying: true, dataRefs: 1}
	with := func(f func(*levelFacts)) levelFacts { l := base; f(&l); return l }
	for _, tc := range []struct {
		name  string
		ref   bool
		facts levelFacts
		level ades.Level
		form  string
	}{
		{"plain XMLDSig", false, levelFacts{dataRefs: 1}, ades.NotBaseline, formNotETSI},
		{"only the SignedProperties reference", true, levelFacts{qualifying: true}, ades.NotBaseline, formNotETSI},
		{"no signing certificate", false, base, ades.NotBaseline, ""},
		{"B", true, base, ades.LevelB, ""},
		{"T", true, with(func(f *levelFacts) { f.signatureTS = 1 }), ades.LevelT, ""},
		{"values without T", true, with(func(f *levelFacts) { f.values = true }), ades.LevelB, ""},
		{"LT", true, with(func(f *levelFacts) { f.signatureTS, f.values = 1, true }), ades.LevelLT, ""},
		{"LTA", true, with(func(f *levelFacts) { f.signatureTS, f.values, f.archiveTS = 1, true, 1 }), ades.LevelLTA, ""},
		{"archive without values", true, with(func(f *levelFacts) { f.signatureTS, f.archiveTS = 1, 1 }), ades.LevelT, ""},
		{"C", true, with(func(f *levelFacts) { f.signatureTS, f.refs = 1, true }), ades.LevelT, formC},
		{"X", true, with(func(f *levelFacts) { f.signatureTS, f.refs, f.xTS = 1, true, 1 }), ades.LevelT, formX},
		{"XL", true, with(func(f *levelFacts) { f.signatureTS, f.refs, f.xTS, f.values = 1, true, 1, true }), ades.LevelLT, formXL},
		{"A", true, with(func(f *levelFacts) { f.signatureTS, f.refs, f.xTS, f.values, f.archiveTS = 1, true, 1, true, 1 }), ades.LevelLTA, formA},
		{"LT_TM", true, with(func(f *levelFacts) { f.timeMark, f.values = true, true }), ades.LevelLT, formLTTM},
		{"time-mark without a signing-certificate reference", false, with(func(f *levelFacts) { f.timeMark, f.values = true, true }), ades.NotBaseline, ""},
		{"time-mark with validation-data references", true, with(func(f *levelFacts) { f.timeMark, f.values, f.refs = true, true, true }), ades.LevelB, formC},
	} {
		sig := ades.Signature{Reference: ades.CertificateReference{Present: tc.ref}}
		l, form := level(&sig, tc.facts)
		if l != tc.level || form != tc.form {
			t.Errorf("%s: %v %q, want %v %q", tc.name, l, form, tc.level, tc.form)
		}
	}
}
