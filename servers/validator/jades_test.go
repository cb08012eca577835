package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/servers/internal/servertest"
)

// TestJAdESBombsAre400 (issue 21): a JWS JSON serialisation nested
// 100,000 deep and one holding a 40 MB string, uploaded under limits that
// let them in, are unreadable uploads (400), the strict JSON reader
// refusing each where it crosses its limit (the reader alone takes
// milliseconds: adapters/formats/jades TestReadBombs). Receiving 40 MB
// is the server's cost whatever the file: the answer must come within a
// second of the answer to 40 MB that is no format at all, measured
// beside it.
func TestJAdESBombsAre400(t *testing.T) {
	t.Parallel()
	s := dev(t, "FW_SERVLET_MULTIPART_MAXFILESIZE=48MB", "FW_SERVLET_MULTIPART_MAXREQUESTSIZE=48MB", "SVC_DSS_VALIDATOR_MAXREQUESTBYTES=52428800")
	upload := func(t *testing.T, file []byte) (servertest.Problem, time.Duration) {
		is := is.New(t)
		start := time.Now()
		res, body := post(t, s.URL, map[string][]byte{"file": file})
		took := time.Since(start)
		is.Equal(res.StatusCode, 400)
		var p servertest.Problem
		is.NoErr(json.Unmarshal(body, &p))
		is.Equal(p.Type, "urn:svc-dss:problem:unreadable-upload")
		return p, took
	}
	_, baseline := upload(t, bytes.Repeat([]byte("A"), 40<<20+64))
	tests := []struct {
		name string
		file []byte
	}{
		{"100,000-deep nesting", append([]byte(`{"protected":`), bytes.Repeat([]byte("["), 100000)...)},
		{"40 MB string", append(append([]byte(`{"protected":"e30","signature":"cw","payload":"`), bytes.Repeat([]byte("A"), 40<<20)...), '"', '}')},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			p, took := upload(t, tt.file)
			is.Equal(p.Detail, "unreadable document: it is in a format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST), but its structure cannot be read")
			t.Logf("answered in %v; 40 MB of no format in %v", took, baseline)
			is.True(took < baseline+time.Second) // within a second of receiving it
		})
	}
}
