package verdict_test

import (
	"crypto/sha256"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
)

// declared returns the values of the constants of type typ declared in
// the package's non-test files: what the sentence table must cover, read
// from the source so that a sub-indication added later without a
// sentence fails the test.
func declared(t *testing.T, typ string) []string {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != typ {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Fatalf("a %s constant is not a string literal", typ)
					}
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// Every sub-indication of EN 319 102-1 (5.1.3) has its sentence, and so
// does every indication a signature can have: the table is complete.
func TestEverySubIndicationHasASentence(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	subs := declared(t, "SubIndication")
	is.Equal(len(subs), 25) // the standard's list, all declared
	for _, s := range subs {
		sub := verdict.SubIndication(s)
		for _, ind := range []verdict.Indication{verdict.TotalFailed, verdict.Indeterminate} {
			got := verdict.SignatureSentence(ind, &sub)
			if got != verdict.Sentence(s) || got.English() == "" {
				t.Errorf("%s/%s has no sentence of its own (%q)", ind, s, got)
			}
		}
	}
	for _, ind := range []verdict.Indication{verdict.TotalPassed, verdict.TotalFailed, verdict.Indeterminate} {
		if verdict.SignatureSentence(ind, nil).English() == "" {
			t.Errorf("%s without a sub-indication has no sentence", ind)
		}
	}
}

func TestSignatureSentence(t *testing.T) {
	t.Parallel()
	hash := verdict.SubHashFailure
	tests := []struct {
		ind  verdict.Indication
		sub  *verdict.SubIndication
		want string
	}{
		{verdict.TotalPassed, nil, "The signature is valid."},
		{verdict.TotalPassed, &hash, "The signature is valid."}, // a passed signature has no sub-indication
		{verdict.TotalFailed, &hash, "The document was changed after it was signed."},
		{verdict.TotalFailed, nil, "The signature is not valid."},
		{verdict.Indeterminate, nil, "The validity of the signature could not be established."},
	}
	for _, tt := range tests {
		if got := verdict.SignatureSentence(tt.ind, tt.sub).English(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.ind, got, tt.want)
		}
	}
}

// The document's sentence follows valid: empty, valid, failed before
// indeterminate, time-stamp entries counted, counter-signatures not.
func TestDocumentSummary(t *testing.T) {
	t.Parallel()
	passed := verdict.SignatureReport{SignatureID: "S1", Indication: verdict.TotalPassed}
	failed := verdict.SignatureReport{SignatureID: "S2", Indication: verdict.TotalFailed, SubIndication: sub(verdict.SubHashFailure)}
	unsure := verdict.SignatureReport{SignatureID: "S3", Indication: verdict.Indeterminate, SubIndication: sub(verdict.SubTryLater)}
	counterFailed := verdict.SignatureReport{SignatureID: "S4", CounterSignatureOf: "S1", Indication: verdict.TotalFailed, SubIndication: sub(verdict.SubSigCryptoFailure)}
	entry := verdict.TimestampEntryReport{ID: "T1", Indication: verdict.Passed}
	badEntry := verdict.TimestampEntryReport{ID: "T2", Indication: verdict.Failed, SubIndication: sub(verdict.SubHashFailure)}
	tests := []struct {
		name    string
		reports []verdict.SignatureReport
		entries []verdict.TimestampEntryReport
		want    verdict.Sentence
	}{
		{"nothing", nil, nil, verdict.SentenceDocumentEmpty},
		{"one passed", []verdict.SignatureReport{passed}, nil, verdict.SentenceDocumentValid},
		{"failed counter-signature", []verdict.SignatureReport{passed, counterFailed}, nil, verdict.SentenceDocumentValid},
		{"failed and indeterminate", []verdict.SignatureReport{unsure, failed}, nil, verdict.SentenceDocumentFailed},
		{"indeterminate", []verdict.SignatureReport{passed, unsure}, nil, verdict.SentenceDocumentIndeterminate},
		{"time-stamp entry only", nil, []verdict.TimestampEntryReport{entry}, verdict.SentenceDocumentTimestamped},
		{"failed time-stamp entry", []verdict.SignatureReport{passed}, []verdict.TimestampEntryReport{badEntry}, verdict.SentenceDocumentFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := verdict.Summarize("doc", sha256.Sum256(nil), tt.reports, verdict.TrustData{}).WithTimestamps(tt.entries)
			is.Equal(s.Summary, tt.want.English())
			for _, r := range s.Signatures {
				is.Equal(r.Summary, verdict.SignatureSentence(r.Indication, r.SubIndication).English())
				is.True(r.SignatureScope != nil && r.CertificateChain != nil) // [] rather than null
			}
		})
	}
}
