package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"

	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/signsetup"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// devSignerProcess is `signer --dev` running as a process.
type devSignerProcess struct {
	url, files string
	cmd        *exec.Cmd
	logs       *servertest.Buffer
}

// buildDev builds the program in dir with the tag dev into a temporary
// file.
func buildDev(t *testing.T, dir, name string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("go", "build", "-tags", "dev", "-o", bin, dir).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", dir, err, out)
	}
	return bin
}

// startDevSigner starts bin --dev with its certificates for the PKI at
// pkiAddress; the test stops it with SIGINT.
func startDevSigner(t *testing.T, bin, pkiAddress string) *devSignerProcess {
	t.Helper()
	cmd := exec.Command(bin, "--dev", "--dev-pki-address", pkiAddress)
	cmd.Env = append(os.Environ(), "SERVER_PORT=0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &devSignerProcess{cmd: cmd, logs: &servertest.Buffer{}}
	cmd.Stderr = p.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
		if t.Failed() {
			t.Logf("development signer's output:\n%s", p.logs.String())
		}
	})
	type started struct{ addr, files string }
	up := make(chan started, 1)
	go func() {
		var files string
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.logs.Write(append(sc.Bytes(), '\n'))
			var rec struct{ Msg, Addr, Files string }
			if json.Unmarshal(sc.Bytes(), &rec) != nil {
				continue
			}
			if rec.Files != "" {
				files = rec.Files
			}
			if rec.Msg == "listening" {
				up <- started{rec.Addr, files}
			}
		}
	}()
	select {
	case s := <-up:
		_, port, err := net.SplitHostPort(s.addr)
		if err != nil {
			t.Fatal(err)
		}
		p.url, p.files = "http://127.0.0.1:"+port, s.files
	case <-time.After(3 * time.Minute):
		t.Fatalf("the development signer did not listen:\n%s", p.logs.String())
	}
	return p
}

// stop interrupts the signer and waits for it to end.
func (p *devSignerProcess) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("the development signer ended with %v:\n%s", err, p.logs.String())
	}
}

// freeLoopbackAddress is a port of 127.0.0.1 free a moment ago: the
// validator's development PKI listens there, and the signer's
// certificates must name it before it does.
func freeLoopbackAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// The two halves of the product together, as a newcomer runs them: the
// development signer, the proxy client `signproxy sign` and `validator
// validate --dev` as real processes.
// Each key of the development signer signs a PDF (PAdES-B) and a file
// (detached CAdES-B) through `signproxy sign`; the validator passes each
// with the Swiss framework and qualification of the certificates
// (qualified, without a qualified time-stamp: not equivalent to a
// handwritten signature), at level B and, with the development PKI's
// time-stamping unit, at level T; and it fails a signed PDF changed
// afterwards.
// Stopping the signer removes the files it made.
func TestSignValidateRoundTrip(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the signer, the proxy client and the validator")
	}
	signerBin := buildDev(t, ".", "signer")
	validatorBin := buildDev(t, "../validator", "validator")
	proxyBin := servertest.Build(t, "github.com/svc-dss/dss/servers/signproxy")
	pkiAddress := freeLoopbackAddress(t)
	srv := startDevSigner(t, signerBin, pkiAddress)
	if srv.files == "" {
		t.Fatalf("the development signer did not log where its files are:\n%s", srv.logs.String())
	}

	dir := t.TempDir()
	pdf, text := filepath.Join(dir, "document.pdf"), filepath.Join(dir, "document.txt")
	if err := os.WriteFile(pdf, fixture.New(1).Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(text, []byte("a document that never leaves the proxy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sign := func(t *testing.T, file, label, out string, extra ...string) {
		t.Helper()
		args := append([]string{"sign", file, "--url", srv.url, "--tenant", signsetup.TenantA, "--module", signsetup.ModuleA,
			"--kid", "dev-proxy", "--client-key", filepath.Join(srv.files, "client-key.pem"), "--key-label", label,
			"--certificate", filepath.Join(srv.files, label+".pem"), "--out", out}, extra...)
		if out, err := exec.Command(proxyBin, args...).CombinedOutput(); err != nil {
			t.Fatalf("signproxy %v: %v\n%s", args, err, out)
		}
	}
	type report struct {
		Valid      bool
		Signatures []struct {
			SignatureFormat       string  `json:"signatureFormat"`
			Indication            string  `json:"indication"`
			SubIndication         *string `json:"subIndication"`
			TrustFramework        string  `json:"trustFramework"`
			SwissQualification    *string `json:"swissQualification"`
			HandwrittenEquivalent *bool   `json:"handwrittenEquivalent"`
		}
	}
	validate := func(t *testing.T, file string, extra ...string) report {
		t.Helper()
		cmd := exec.Command(validatorBin, append([]string{"validate", file, "--dev"}, extra...)...)
		cmd.Env = append(os.Environ(), "SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS="+pkiAddress, "SVC_DSS_TL_CACHE="+t.TempDir())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("validator validate %s: %v\n%s", file, err, stderr.String())
		}
		var r report
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("validator validate %s: %v\n%s", file, err, out)
		}
		if len(r.Signatures) != 1 {
			t.Fatalf("validator validate %s: %d signatures:\n%s", file, len(r.Signatures), out)
		}
		return r
	}

	// Not parallel: the validations share the development PKI's address.
	for _, label := range []string{"sign-rsa", "sign-p256"} {
		for _, tt := range []struct {
			format, file, out string
			validate          []string
		}{
			{"PAdES_BASELINE_B", pdf, filepath.Join(dir, label+".pdf"), nil},
			{"CAdES_BASELINE_B", text, filepath.Join(dir, label+".p7s"), []string{"--detached", text}},
		} {
			t.Run(label+" "+tt.format, func(t *testing.T) {
				is := is.New(t)
				sign(t, tt.file, label, tt.out)
				r := validate(t, tt.out, tt.validate...)
				s := r.Signatures[0]
				is.Equal(s.Indication, "TOTAL_PASSED") // s.SubIndication
				is.Equal(s.SignatureFormat, tt.format)
				is.Equal(s.TrustFramework, "CH_ZERTES")
				is.True(s.SwissQualification != nil)
				is.Equal(*s.SwissQualification, "QES")
				is.True(s.HandwrittenEquivalent != nil && !*s.HandwrittenEquivalent)
				is.True(r.Valid)
			})
		}
	}
	t.Run("sign-p256 PAdES_BASELINE_T", func(t *testing.T) {
		is := is.New(t)
		// The development PKI's time-stamping unit, served from this
		// process at the validator's PKI address while the client signs
		// (the same bytes as the validator's: the PKI is a function of its
		// address), closed before the validator listens there. Its unit is
		// a qualified one on the EU lists, not on the Swiss list: the
		// signature stays a QES not equivalent to a handwritten one.
		tsa, err := pki.NewServerAt(pkiAddress)
		is.NoErr(err)
		out := filepath.Join(dir, "sign-p256-T.pdf")
		sign(t, pdf, "sign-p256", out, "--tsa", tsa.PKI.TSAURL())
		is.NoErr(tsa.Close())
		r := validate(t, out)
		s := r.Signatures[0]
		is.Equal(s.Indication, "TOTAL_PASSED") // s.SubIndication
		is.Equal(s.SignatureFormat, "PAdES_BASELINE_T")
		is.Equal(s.TrustFramework, "CH_ZERTES")
		is.True(s.SwissQualification != nil)
		is.Equal(*s.SwissQualification, "QES")
		is.True(s.HandwrittenEquivalent != nil && !*s.HandwrittenEquivalent)
	})
	t.Run("a PDF changed after signing", func(t *testing.T) {
		is := is.New(t)
		signed := filepath.Join(dir, "sign-p256.pdf")
		b, err := os.ReadFile(signed)
		is.NoErr(err)
		// The page's content stream is signed: one of its characters
		// changed is a document other than the one signed.
		at := bytes.Index(b, []byte("Tj"))
		is.True(at > 0)
		b[at-3] ^= 0x01 // "of 1)" becomes "of 0)"
		changed := filepath.Join(dir, "changed.pdf")
		is.NoErr(os.WriteFile(changed, b, 0o644))
		r := validate(t, changed)
		is.Equal(r.Signatures[0].Indication, "TOTAL_FAILED")
		is.True(!r.Valid)
	})

	srv.stop(t)
	if _, err := os.Stat(srv.files); !os.IsNotExist(err) {
		t.Errorf("the development signer's files %s are still there after it stopped (%v)", srv.files, err)
	}
}
