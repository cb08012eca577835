-- 0001: the control database of the validation service and the signing
-- server. Table names are unqualified so that the connection's search_path
-- (svc.dss.control-db.schema) decides where they live.
--
-- Secrets never live here: client_secret_ref and pin_ref name where the
-- secret is kept; the process that needs it resolves the reference.

CREATE TABLE tenants (
    id      uuid    PRIMARY KEY,
    name    text    NOT NULL,
    -- A disabled tenant is treated as unknown by every lookup.
    enabled boolean NOT NULL DEFAULT true
);

-- One OpenID provider per tenant (validation-service.md §5).
CREATE TABLE oidc_providers (
    tenant_id         uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
    issuer            text NOT NULL CHECK (issuer <> ''),
    client_id         text NOT NULL CHECK (client_id <> ''),
    -- Where the client secret is kept (for example env:NAME), never the secret.
    client_secret_ref text NOT NULL DEFAULT '',
    -- Expected aud of bearer tokens; '' leaves the choice to the OIDC layer.
    audience          text NOT NULL DEFAULT '',
    -- External base URL for this tenant's redirect URI; '' means the
    -- configured svc.dss.validator.base-url.
    redirect_base_url text NOT NULL DEFAULT ''
);

-- Feature licences ('dss.validator', 'dss'). The licence is valid from
-- valid_from (inclusive) until valid_until (exclusive); NULL leaves that
-- side open. A renewal updates the row.
CREATE TABLE tenant_features (
    tenant_id   uuid        NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    feature     text        NOT NULL CHECK (feature <> ''),
    valid_from  timestamptz,
    valid_until timestamptz,
    PRIMARY KEY (tenant_id, feature),
    CHECK (valid_from IS NULL OR valid_until IS NULL OR valid_from < valid_until)
);

-- Permissions ('dss.sign'), granted without a validity period.
CREATE TABLE tenant_permissions (
    tenant_id  uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    permission text NOT NULL CHECK (permission <> ''),
    PRIMARY KEY (tenant_id, permission)
);

-- The tenant's DSS module instances (signing-server.md §2: moduleUuid).
CREATE TABLE dss_modules (
    id        uuid    PRIMARY KEY,
    tenant_id uuid    NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    name      text    NOT NULL DEFAULT '',
    enabled   boolean NOT NULL DEFAULT true,
    -- Target of the composite foreign key of client_keys.
    UNIQUE (tenant_id, id)
);

-- Public keys of the callers of the signing server, looked up by
-- (tenant_id, kid). The composite foreign key makes a key registered for
-- another tenant's module impossible to store.
CREATE TABLE client_keys (
    tenant_id  uuid    NOT NULL,
    kid        text    NOT NULL CHECK (kid <> ''),
    module_id  uuid    NOT NULL,
    -- JWS algorithm the key verifies; the client-signed JWT is RSA or EC
    -- (signing-server.md §5).
    algorithm  text    NOT NULL CHECK (algorithm IN (
        'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512')),
    -- PEM (-----BEGIN PUBLIC KEY-----) or a JWK as JSON text.
    public_key text    NOT NULL CHECK (public_key <> ''),
    enabled    boolean NOT NULL DEFAULT true,
    PRIMARY KEY (tenant_id, kid),
    FOREIGN KEY (tenant_id, module_id) REFERENCES dss_modules (tenant_id, id) ON DELETE CASCADE
);

-- The tenant's HSM partition (signing-server.md §1), read per request.
CREATE TABLE hsm_partitions (
    tenant_id      uuid   PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
    partition_type text   NOT NULL CHECK (partition_type <> ''),
    -- Path of the PKCS#11 library.
    pkcs11_module  text   NOT NULL CHECK (pkcs11_module <> ''),
    -- Network address of the HSM; '' for a local library such as SoftHSM2.
    host           text   NOT NULL DEFAULT '',
    slot           bigint CHECK (slot >= 0),
    token_label    text   NOT NULL DEFAULT '',
    user_name      text   NOT NULL DEFAULT '',
    -- Where the partition PIN is kept, never the PIN.
    pin_ref        text   NOT NULL CHECK (pin_ref <> ''),
    CHECK (slot IS NOT NULL OR token_label <> '')
);
