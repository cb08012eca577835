package main

import (
	"testing"

	"github.com/matryer/is"
)

// The development flags are taken out of the command line before the
// configuration loader reads it; each misuse says what is wrong.
func TestDevFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		rest []string
		dev  devOptions
		err  string
	}{
		{"none", []string{"--config", "x.yaml"}, []string{"--config", "x.yaml"}, devOptions{pkiAddress: devPKIAddress}, ""},
		{"--dev", []string{"--dev", "--config", "x.yaml"}, []string{"--config", "x.yaml"}, devOptions{on: true, pkiAddress: devPKIAddress}, ""},
		{"an address", []string{"--dev", "--dev-pki-address", "127.0.0.1:9001"}, nil, devOptions{on: true, pkiAddress: "127.0.0.1:9001"}, ""},
		{"an address with =", []string{"--dev-pki-address=127.0.0.1:9001", "--dev"}, nil, devOptions{on: true, pkiAddress: "127.0.0.1:9001"}, ""},
		{"an address without --dev", []string{"--dev-pki-address", "127.0.0.1:9001"}, nil, devOptions{}, "--dev-pki-address: only with --dev"},
		{"no address", []string{"--dev", "--dev-pki-address"}, nil, devOptions{}, "--dev-pki-address: missing: the development validator's PKI address, host:port (default 127.0.0.1:8098)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			rest, dev, err := devFlags(tt.args)
			if tt.err != "" {
				is.True(err != nil)
				is.Equal(err.Error(), tt.err)
				return
			}
			is.NoErr(err)
			is.Equal(rest, tt.rest)
			is.Equal(dev, tt.dev)
		})
	}
}
