package main

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/fixtures/signsetup"
	"github.com/svc-dss/dss/fixtures/softhsm"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// moduleA2 is a second module of tenant A, for a client key registered
// for the other module.
const moduleA2 = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2"

// proxy is a client key registered for a tenant's module under kid.
type proxy struct {
	tenant, module, kid string
	key                 *ecdsa.PrivateKey
}

// signWorld is the signer program running on a real control database and
// a real SoftHSM2 partition: what signproxy signs against.
type signWorld struct {
	url    string
	a, a2  proxy                       // tenant A's proxies on module A and on moduleA2
	pubs   map[string]crypto.PublicKey // the partition's signing keys' public halves, by label
	signer *servertest.Process
}

// newSignWorld seeds a new control database (the development seed, tenant
// A's partition on a new SoftHSM2 token with an RSA-2048 key sign-rsa and
// a P-256 key sign-p256, each with its authorization key, and proxies A
// and A2) and starts the signer binary on it.
func newSignWorld(t *testing.T) *signWorld {
	t.Helper()
	admin := pgtest.NewDatabaseURL(t)
	db, err := postgres.OpenWritable(postgres.Options{URL: admin})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := signsetup.Prepare(ctx, db); err != nil {
		t.Fatal(err)
	}
	tok := softhsm.New(t)
	part, err := signsetup.NewPartition(ctx, db, tok, signsetup.TenantA,
		append(signsetup.SigningKeys("sign-rsa", true), signsetup.SigningKeys("sign-p256", false)...)...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO dss_modules (id, tenant_id, name, enabled) VALUES ($1, $2, 'second', true)`,
		moduleA2, signsetup.TenantA); err != nil {
		t.Fatal(err)
	}
	register := func(module, kid string) proxy {
		key, err := signsetup.Register(ctx, db, signsetup.TenantA, module, kid)
		if err != nil {
			t.Fatal(err)
		}
		return proxy{tenant: signsetup.TenantA, module: module, kid: kid, key: key}
	}
	w := &signWorld{a: register(signsetup.ModuleA, "proxy-a"), a2: register(moduleA2, "proxy-a2"), pubs: part.Public}
	bin := servertest.Build(t, "github.com/svc-dss/dss/servers/signer")
	w.signer = servertest.Start(t, bin, "SERVER_PORT=0", "SVC_DSS_CONTROL_DB_URL="+admin, "SOFTHSM2_CONF="+tok.ConfigPath())
	_, port, _ := strings.Cut(w.signer.Addr, "]:")
	if port == "" {
		_, port, _ = strings.Cut(w.signer.Addr, ":")
	}
	w.url = "http://127.0.0.1:" + port
	return w
}
