-- Development seed. Applied by Seed after Migrate; re-applying it changes
-- nothing (ON CONFLICT DO NOTHING), so rows a test or a developer changed
-- keep their values. Never apply it to a production database.
--
-- Tenant A: licence dss.validator and dss, permission dss.sign, one DSS
--           module with one client key, a SoftHSM2 partition.
-- Tenant B: licence dss.validator only.
-- Tenant C: no licence: it can log in but is refused (403).
--
-- The issuers are placeholders; tests point them at their own provider:
--   UPDATE oidc_providers SET issuer = $1 WHERE tenant_id = '11111111-1111-4111-8111-111111111111';

INSERT INTO tenants (id, name, enabled) VALUES
    ('11111111-1111-4111-8111-111111111111', 'Tenant A', true),
    ('22222222-2222-4222-8222-222222222222', 'Tenant B', true),
    ('33333333-3333-4333-8333-333333333333', 'Tenant C', true)
ON CONFLICT DO NOTHING;

INSERT INTO oidc_providers (tenant_id, issuer, client_id, client_secret_ref, audience, redirect_base_url) VALUES
    ('11111111-1111-4111-8111-111111111111', 'http://127.0.0.1/tenant-a', 'dss-validator-a', 'env:SVC_DSS_DEV_OIDC_SECRET_A', 'dss-validator-a', ''),
    ('22222222-2222-4222-8222-222222222222', 'http://127.0.0.1/tenant-b', 'dss-validator-b', 'env:SVC_DSS_DEV_OIDC_SECRET_B', 'dss-validator-b', ''),
    ('33333333-3333-4333-8333-333333333333', 'http://127.0.0.1/tenant-c', 'dss-validator-c', 'env:SVC_DSS_DEV_OIDC_SECRET_C', 'dss-validator-c', '')
ON CONFLICT DO NOTHING;

INSERT INTO tenant_features (tenant_id, feature, valid_from, valid_until) VALUES
    ('11111111-1111-4111-8111-111111111111', 'dss.validator', NULL, NULL),
    ('11111111-1111-4111-8111-111111111111', 'dss', NULL, NULL),
    ('22222222-2222-4222-8222-222222222222', 'dss.validator', NULL, NULL)
ON CONFLICT DO NOTHING;

INSERT INTO tenant_permissions (tenant_id, permission) VALUES
    ('11111111-1111-4111-8111-111111111111', 'dss.sign')
ON CONFLICT DO NOTHING;

INSERT INTO dss_modules (id, tenant_id, name, enabled) VALUES
    ('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', '11111111-1111-4111-8111-111111111111', 'Tenant A module', true)
ON CONFLICT DO NOTHING;

-- The matching private key is adapters/postgres/testdata/dev-client-key-tenant-a.pem,
-- a published development key.
INSERT INTO client_keys (tenant_id, kid, module_id, algorithm, public_key, enabled) VALUES
    ('11111111-1111-4111-8111-111111111111', 'tenant-a-dev', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ES256',
     '-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE05E+q9nbQxU22lec3cFk+xfs/jxr
gMlVDnIYJYwT/8kOYiJVuB5wJ5HfIpnwQF5MXuN0DbJImOmUoA/S2Isdmw==
-----END PUBLIC KEY-----
', true)
ON CONFLICT DO NOTHING;

INSERT INTO hsm_partitions (tenant_id, partition_type, pkcs11_module, host, slot, token_label, user_name, pin_ref) VALUES
    ('11111111-1111-4111-8111-111111111111', 'pkcs11-ska', '/usr/lib/softhsm/libsofthsm2.so', '', NULL, 'tenant-a', 'user', 'env:SVC_DSS_DEV_HSM_PIN_A')
ON CONFLICT DO NOTHING;
