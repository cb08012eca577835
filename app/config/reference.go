package config

import (
	"fmt"
	"strings"
)

// Reference renders keys as the Markdown table of the README's
// configuration reference, so that the README is generated from the same
// table the loader reads and cannot drift from it.
func Reference(keys []Key) string {
	var b strings.Builder
	b.WriteString("| Key | Environment variable | Default | Meaning |\n|---|---|---|---|\n")
	for _, k := range keys {
		def := "(empty)"
		if k.Default != "" {
			def = "`" + k.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", k.Name, k.Env, def, strings.ReplaceAll(k.Doc, "|", "\\|"))
	}
	return b.String()
}
