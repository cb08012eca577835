package config_test

import (
	"io"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/config"
)

// TestMetricsToken: the metrics token of both programs, from the
// environment or a file; a token that cannot be used stops the start-up
// with one line that names the key and never repeats the token.
func TestMetricsToken(t *testing.T) {
	good := strings.Repeat("a1", 16)
	tests := []struct {
		name    string
		program string
		env     []string
		want    string // the token loaded, or the exact error
		wantErr bool
	}{
		{"validator unset", "validator", nil, "", false},
		{"validator set", "validator", []string{"SVC_DSS_VALIDATOR_METRICS_TOKEN=" + good}, good, false},
		{"signer set", "signer", []string{"SVC_DSS_SIGNER_METRICS_TOKEN= " + good + " "}, good, false},
		{"validator too short", "validator", []string{"SVC_DSS_VALIDATOR_METRICS_TOKEN=secret"},
			`config: svc.dss.validator.metrics.token (env SVC_DSS_VALIDATOR_METRICS_TOKEN) = "******": shorter than 32 characters, it can be guessed: use a random one (openssl rand -hex 32)`, true},
		{"signer too short", "signer", []string{"SVC_DSS_SIGNER_METRICS_TOKEN=secret"},
			`config: svc.dss.signer.metrics.token (env SVC_DSS_SIGNER_METRICS_TOKEN) = "******": shorter than 32 characters, it can be guessed: use a random one (openssl rand -hex 32)`, true},
		{"space inside", "validator", []string{"SVC_DSS_VALIDATOR_METRICS_TOKEN=" + good + " " + good},
			`config: svc.dss.validator.metrics.token (env SVC_DSS_VALIDATOR_METRICS_TOKEN) = "******": holds a character other than visible ASCII (a space, a control character, a letter outside ASCII): the Authorization header carries the token as one word`, true},
		{"letter outside ASCII", "signer", []string{"SVC_DSS_SIGNER_METRICS_TOKEN=" + good + "é"},
			`config: svc.dss.signer.metrics.token (env SVC_DSS_SIGNER_METRICS_TOKEN) = "******": holds a character other than visible ASCII (a space, a control character, a letter outside ASCII): the Authorization header carries the token as one word`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			var token string
			var err error
			if tt.program == "signer" {
				var c config.Signer
				c, err = config.LoadSigner(nil, tt.env, io.Discard)
				token = c.Metrics.Token
			} else {
				var c config.Validator
				c, err = config.LoadValidator(nil, tt.env, io.Discard)
				token = c.Metrics.Token
			}
			if tt.wantErr {
				is.True(err != nil)
				is.Equal(err.Error(), tt.want)
				return
			}
			is.NoErr(err)
			is.Equal(token, tt.want)
		})
	}
}
