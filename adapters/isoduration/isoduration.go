// Package isoduration reads and writes the ISO-8601 durations of the
// configuration (docs/decisions/0002) and of the validation policies
// (docs/decisions/0042): one grammar for every document an operator
// writes.
package isoduration

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Parse reads an ISO-8601 duration of the form Java's Duration
// accepts (PnDTnHnMn.nS, with weeks as PnW), which is what the spec's
// defaults (P7D, PT30S) are written in. Years and months are refused: they
// have no fixed length, so a threshold written with them would drift with
// the calendar. The result must not be negative.
func Parse(s string) (time.Duration, error) {
	if s == "" {
		return 0, errors.New("empty duration")
	}
	in := strings.ToUpper(s)
	if !strings.HasPrefix(in, "P") {
		return 0, fmt.Errorf("invalid ISO-8601 duration %q: must start with P (e.g. P7D, PT30S)", s)
	}
	rest := in[1:]
	if rest == "" || rest == "T" {
		return 0, fmt.Errorf("invalid ISO-8601 duration %q: no components", s)
	}
	var total time.Duration
	inTime := false
	seen := ""
	for rest != "" {
		if rest[0] == 'T' {
			if inTime {
				return 0, fmt.Errorf("invalid ISO-8601 duration %q: T appears twice", s)
			}
			inTime = true
			rest = rest[1:]
			if rest == "" {
				return 0, fmt.Errorf("invalid ISO-8601 duration %q: nothing after T", s)
			}
			continue
		}
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9' || rest[i] == '.' || rest[i] == ',') {
			i++
		}
		if i == 0 || i == len(rest) {
			return 0, fmt.Errorf("invalid ISO-8601 duration %q: expected a number followed by a unit", s)
		}
		num, unit := strings.ReplaceAll(rest[:i], ",", "."), rest[i]
		rest = rest[i+1:]
		key := string(unit)
		if inTime {
			key = "T" + key
		}
		if strings.Contains(seen, key+"|") {
			return 0, fmt.Errorf("invalid ISO-8601 duration %q: unit %c repeated", s, unit)
		}
		seen += key + "|"
		var scale time.Duration
		switch key {
		case "W":
			scale = 7 * 24 * time.Hour
		case "D":
			scale = 24 * time.Hour
		case "TH":
			scale = time.Hour
		case "TM":
			scale = time.Minute
		case "TS":
			scale = time.Second
		case "Y", "M":
			return 0, fmt.Errorf("invalid ISO-8601 duration %q: years and months have no fixed length; use days (P30D)", s)
		default:
			return 0, fmt.Errorf("invalid ISO-8601 duration %q: unknown unit %c", s, unit)
		}
		if strings.Contains(num, ".") && key != "TS" {
			return 0, fmt.Errorf("invalid ISO-8601 duration %q: only seconds may have a fraction", s)
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid ISO-8601 duration %q: bad number %q", s, num)
		}
		part := time.Duration(v * float64(scale))
		if v > float64(1<<62)/float64(scale) || total+part < total {
			return 0, fmt.Errorf("invalid ISO-8601 duration %q: too long", s)
		}
		total += part
	}
	return total, nil
}

// Format writes d back in the ISO-8601 form Parse reads,
// using whole days where it can, so that a logged setting reads like the
// configuration it came from.
func Format(d time.Duration) string {
	if d == 0 {
		return "PT0S"
	}
	var b strings.Builder
	b.WriteByte('P')
	day := 24 * time.Hour
	if days := d / day; days > 0 {
		fmt.Fprintf(&b, "%dD", days)
		d -= days * day
	}
	if d > 0 {
		b.WriteByte('T')
		if h := d / time.Hour; h > 0 {
			fmt.Fprintf(&b, "%dH", h)
			d -= h * time.Hour
		}
		if m := d / time.Minute; m > 0 {
			fmt.Fprintf(&b, "%dM", m)
			d -= m * time.Minute
		}
		if d > 0 {
			b.WriteString(strconv.FormatFloat(d.Seconds(), 'f', -1, 64))
			b.WriteByte('S')
		}
	}
	return b.String()
}
