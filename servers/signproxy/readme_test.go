package main

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/fixtures/signsetup"
)

// readmeSignSection is the README's section for newcomers.
const readmeSignSection = "## Sign and validate in two minutes"

// TestREADMESignCommand holds the README's sign command to the code: it
// is `signproxy sign` with options the command has, for the development
// signer's tenant, module, kid and keys, writing the file the validate
// command of the section reads.
func TestREADMESignCommand(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	raw, err := os.ReadFile("../../README.md")
	is.NoErr(err)
	_, section, ok := strings.Cut(string(raw), readmeSignSection+"\n")
	is.True(ok) // the README has the section
	section, _, _ = strings.Cut(section, "\n## ")
	var sign, validate string
	for _, block := range strings.Split(section, "```sh\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		block = strings.ReplaceAll(block, "\\\n", " ")
		for _, line := range strings.Split(block, "\n") {
			switch {
			case strings.HasPrefix(line, "go run ./servers/signproxy sign "):
				sign = line
			case strings.HasPrefix(line, "go run -tags dev ./servers/validator validate --dev "):
				validate = line
			}
		}
	}
	is.True(sign != "")     // the section signs with go run ./servers/signproxy sign
	is.True(validate != "") // and validates with validate --dev
	var c signCommand
	fs := c.flags(io.Discard)
	fields := strings.Fields(strings.TrimPrefix(sign, "go run ./servers/signproxy sign "))
	values := map[string]string{}
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if !strings.HasPrefix(f, "--") {
			is.Equal(f, "document.pdf") // the one file
			continue
		}
		is.True(fs.Lookup(strings.TrimPrefix(f, "--")) != nil) // an option of signproxy sign
		is.True(i+1 < len(fields))
		values[f] = fields[i+1]
		i++
	}
	is.Equal(values["--tenant"], signsetup.TenantA)
	is.Equal(values["--module"], signsetup.ModuleA)
	is.Equal(values["--kid"], "dev-proxy")
	is.Equal(values["--key-label"], "sign-p256")
	is.True(strings.HasSuffix(values["--certificate"], "/sign-p256.pem"))
	is.True(strings.HasSuffix(values["--client-key"], "/client-key.pem"))
	is.True(strings.HasSuffix(validate, " document-signed.pdf")) // the sign command's default output
}
