package main

import (
	"bytes"
	"context"
	"html"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validator"
	op "github.com/svc-dss/dss/fixtures/oidc"
	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/servers/internal/servertest"
	"github.com/svc-dss/dss/servers/internal/shell"
)

// The accounts of the shared provider, one per seeded tenant: the three
// tenants' registrations name the same issuer, each with its own client.
var (
	alice = op.User{Subject: "alice", Name: "Alice (tenant A)", TenantID: tenantA}
	bob   = op.User{Subject: "bob", Name: "Bob (tenant B)", TenantID: tenantB}
	carol = op.User{Subject: "carol", Name: "Carol (tenant C)", TenantID: tenantC}
)

// The client secrets, in the environment variables the seed's
// client_secret_ref names.
var secrets = map[string]string{
	"SVC_DSS_DEV_OIDC_SECRET_A": "secret-of-client-a-7f3e",
	"SVC_DSS_DEV_OIDC_SECRET_B": "secret-of-client-b-91c2",
	"SVC_DSS_DEV_OIDC_SECRET_C": "secret-of-client-c-0d5a",
}

// testClock is the service's clock in UI tests: the wall clock, moved
// forward on demand (sessions expire, lists go stale). Identity providers
// and their tokens keep the wall clock.
type testClock struct{ offset atomic.Int64 }

func (c *testClock) Now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *testClock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// uiWorld is a validator built in-process as run builds it, but on a
// clock of the test's, with a real control database (schema and seed)
// whose tenants share one real OpenID provider, or under permit-all.
type uiWorld struct {
	url   string
	clock *testClock
	op    *op.Provider
	admin string // a URL of the control database that may change it
	logs  *servertest.Buffer
	app   *validator.Validator
}

type uiOptions struct {
	// permitAll serves without a database and without a provider.
	permitAll bool
	// env adds settings; later entries win, but the mode (permit-all,
	// database) is the world's. The base URL may be overridden.
	env []string
	// publicB registers tenant B's client at the provider as a public
	// client: no secret, PKCE alone.
	publicB bool
	// replicaOf makes the world another replica of that one: the same
	// control database and provider, whose clients know that world's
	// redirect URI.
	replicaOf *uiWorld
}

func newUIWorld(t *testing.T, o uiOptions) *uiWorld {
	t.Helper()
	// The redirect URIs name the server's address: listen first.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w := &uiWorld{url: "http://" + l.Addr().String(), clock: &testClock{}, logs: &servertest.Buffer{}}
	// The options' settings first: the mode's win.
	env := append(append(offline(t), "SVC_DSS_VALIDATOR_BASE_URL="+w.url), o.env...)
	env = append(env, "SVC_DSS_VALIDATOR_PERMIT_ALL=true")
	switch {
	case o.permitAll:
	case o.replicaOf != nil:
		w.admin, w.op = o.replicaOf.admin, o.replicaOf.op
	default:
		w.admin = controlDatabase(t)
		redirect := []string{w.url + validator.LoginCallbackPath}
		clientB := op.Client{ID: "dss-validator-b", Secret: secrets["SVC_DSS_DEV_OIDC_SECRET_B"], RedirectURIs: redirect}
		if o.publicB {
			clientB.Secret = ""
		}
		w.op = op.Start(t, op.Options{
			Name:  "shared",
			Users: []op.User{alice, bob, carol},
			Clients: []op.Client{
				{ID: "dss-validator-a", Secret: secrets["SVC_DSS_DEV_OIDC_SECRET_A"], RedirectURIs: redirect},
				clientB,
				{ID: "dss-validator-c", Secret: secrets["SVC_DSS_DEV_OIDC_SECRET_C"], RedirectURIs: redirect},
			},
		})
		w.exec(t, `UPDATE oidc_providers SET issuer = $1`, w.op.Issuer)
	}
	if !o.permitAll {
		env = append(env, "SVC_DSS_VALIDATOR_PERMIT_ALL=false", "SVC_DSS_CONTROL_DB_URL="+w.admin)
		for k, v := range secrets {
			env = append(env, k+"="+v)
		}
	}
	cfg, err := config.LoadValidator(nil, env, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	logger := shell.NewLogger(w.logs, slog.LevelInfo)
	w.app, err = validator.New(context.Background(), cfg, logger, w.clock.Now, validator.WithLookupEnv(lookupIn(env)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.app.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := w.app.Start(ctx); err != nil {
		t.Fatal(err)
	}
	e, err := newServer(w.app, logger)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(e)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return w
}

// controlDatabase is a fresh control database with the schema and seed.
func controlDatabase(t *testing.T) string {
	t.Helper()
	u := pgtest.NewDatabaseURL(t)
	seedControl(t, u)
	return u
}

// seedControl gives the empty control database at url the schema and
// seed.
func seedControl(t *testing.T, url string) {
	t.Helper()
	db, err := postgres.OpenWritable(postgres.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := postgres.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	if err := postgres.Seed(context.Background(), db); err != nil {
		t.Fatal(err)
	}
}

// exec changes the control database.
func (w *uiWorld) exec(t *testing.T, query string, args ...any) {
	t.Helper()
	db, err := postgres.OpenWritable(postgres.Options{URL: w.admin})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatal(err)
	}
}

// A browser is an HTTP client with a cookie jar that follows redirects,
// as a browser does (without script: the pages have none).
type browser struct {
	t    *testing.T
	w    *uiWorld
	c    *http.Client
	jar  *cookiejar.Jar
	seen []*http.Response // every response, redirects included
}

func (w *uiWorld) browser(t *testing.T) *browser {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &browser{t: t, w: w, jar: jar}
	b.c = &http.Client{Jar: jar, Transport: recorder{b}}
	return b
}

// recorder keeps every response of a browser, for the headers of the
// redirects it follows.
type recorder struct{ b *browser }

func (r recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		r.b.seen = append(r.b.seen, res)
	}
	return res, err
}

// A response is what the browser ended on.
type response struct {
	status int
	body   string
	url    *url.URL
	header http.Header
}

func (b *browser) do(req *http.Request) response {
	b.t.Helper()
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	return response{status: res.StatusCode, body: string(body), url: res.Request.URL, header: res.Header}
}

// get requests path (or an absolute URL) and follows redirects.
func (b *browser) get(path string) response {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.abs(path), nil)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(req)
}

func (b *browser) post(path, contentType string, body io.Reader) response {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodPost, b.abs(path), body)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	return b.do(req)
}

func (b *browser) abs(path string) string {
	if strings.HasPrefix(path, "http") {
		return path
	}
	return b.w.url + path
}

// login opens the UI for tenant and signs in as user at the provider,
// choosing the user on the provider's page as a person would.
func (b *browser) login(tenant string, user op.User) response {
	b.t.Helper()
	r := b.get("/validate?tenantId=" + tenant)
	if r.status == http.StatusOK && strings.HasPrefix(r.url.String(), b.w.op.Issuer+op.LoginPath) {
		id := submatch(b.t, r.body, `name="authRequestID" value="([^"]+)"`)
		form := url.Values{"authRequestID": {id}, "subject": {user.Subject}}
		r = b.post(b.w.op.Issuer+op.LoginPath, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	}
	return r
}

// upload posts the upload form with the session's token and the parts.
func (b *browser) upload(csrf string, parts ...part) response {
	b.t.Helper()
	body, ct := form(b.t, csrf, parts...)
	return b.post("/validate", ct, body)
}

// A part is one field of a multipart form: a file when name is set.
type part struct {
	field, name string
	data        []byte
}

// form builds a multipart form with a csrf field (none when csrf is "")
// and the parts.
func form(t *testing.T, csrf string, parts ...part) (io.Reader, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	if csrf != "" {
		if err := w.WriteField("csrf", csrf); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range parts {
		var err error
		if p.name == "" {
			err = w.WriteField(p.field, string(p.data))
		} else {
			var fw io.Writer
			if fw, err = w.CreateFormFile(p.field, p.name); err == nil {
				_, err = fw.Write(p.data)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &b, w.FormDataContentType()
}

// cookie is the session cookie the browser holds, "" when none.
func (b *browser) cookie() string {
	u, _ := url.Parse(b.w.url)
	for _, c := range b.jar.Cookies(u) {
		if c.Name == plainCookieName {
			return c.Value
		}
	}
	return ""
}

// setCookies returns the cookies of that name set by the responses seen
// so far.
func (b *browser) setCookies(name string) []*http.Cookie {
	var out []*http.Cookie
	for _, res := range b.seen {
		for _, c := range res.Cookies() {
			if c.Name == name {
				out = append(out, c)
			}
		}
	}
	return out
}

// csrfOf is the form token of a page.
func csrfOf(t *testing.T, body string) string {
	t.Helper()
	return submatch(t, body, `name="csrf" value="([A-Za-z0-9_-]{43})"`)
}

func submatch(t *testing.T, s, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no %s in:\n%s", pattern, s)
	}
	return m[1]
}

// has reports whether the page holds text as html/template writes it.
func has(body, text string) bool {
	return strings.Contains(body, html.EscapeString(text))
}

// element returns the element of the page with the given id, from its
// opening tag to the first closing tag of its name: the pages never nest
// an element in one of the same name where the tests read.
func element(body, id string) string {
	i := strings.Index(body, `id="`+id+`"`)
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(body[:i], "<")
	name := strings.FieldsFunc(body[start+1:i], func(r rune) bool { return r == ' ' || r == '>' })[0]
	end := strings.Index(body[i:], "</"+name+">")
	if end < 0 {
		return body[start:]
	}
	return body[start : i+end]
}

// text is the text of the element with the given id, tags removed and
// entities decoded.
func text(body, id string) string {
	return html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(element(body, id), ""))
}
