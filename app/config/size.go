package config

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseDataSize reads a size written as the spec writes the multipart limits
// ("20MB"): a whole number with an optional unit B, KB, MB, GB or TB. The
// units are binary (1MB = 1,048,576 bytes), as in the Spring property the
// spec's fw.servlet.multipart keys come from, so "40MB" equals the
// 41943040-byte max-request-bytes default. A bare number is bytes.
func ParseDataSize(s string) (int64, error) {
	in := strings.ToUpper(strings.TrimSpace(s))
	i := 0
	for i < len(in) && in[i] >= '0' && in[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("invalid data size %q: expected a whole number with an optional unit (B, KB, MB, GB, TB)", s)
	}
	n, err := strconv.ParseInt(in[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid data size %q: %w", s, err)
	}
	var shift uint
	switch in[i:] {
	case "", "B":
	case "KB":
		shift = 10
	case "MB":
		shift = 20
	case "GB":
		shift = 30
	case "TB":
		shift = 40
	default:
		return 0, fmt.Errorf("invalid data size %q: unknown unit %q (B, KB, MB, GB, TB)", s, in[i:])
	}
	if n > (1<<62)>>shift {
		return 0, fmt.Errorf("invalid data size %q: too large", s)
	}
	return n << shift, nil
}
