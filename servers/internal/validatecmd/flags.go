package validatecmd

import (
	"flag"
	"strings"
)

// ParseInterleaved parses the flags of fs wherever they stand among args
// and returns the other arguments, in order. The flag package alone
// stops at the first argument that is not a flag, so in
// `validate --dev sig.p7s --detached content.txt` it would leave
// --detached unparsed. Both `--name=value` and `--name value` are read,
// the second only for flags that take a value (not booleans), as the
// flag package reads them; "--" ends the flags, and everything after it
// is an argument, however it starts. An unknown flag, or one without
// its value, is fs.Parse's error, reported through fs.Usage.
//
// The caller decides how many arguments it accepts: none is ever
// dropped.
func ParseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a) // "-" too: by convention standard input, not a flag
			continue
		}
		flags = append(flags, a)
		name := strings.TrimPrefix(a[1:], "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
			i++
			flags = append(flags, args[i]) // the value, whatever it looks like
		}
	}
	if err := fs.Parse(flags); err != nil {
		return nil, err
	}
	// Every element of flags is a flag or its value, so Parse reads them
	// all; were one left, it would still not be dropped.
	return append(rest, fs.Args()...), nil
}

// isBoolFlag reports a flag that takes no separate value (--offline),
// as the flag package tells them apart.
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
