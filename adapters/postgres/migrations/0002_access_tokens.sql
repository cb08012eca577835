-- 0002: how the validator tells a provider's access tokens from its ID
-- tokens and other JWTs (docs/decisions/0022, point 7).
--
--   'claims'  (the default): typ at+jwt is an access token; typ JWT or no
--             typ is one unless it carries nonce, at_hash, c_hash or
--             s_hash (claims only ID tokens carry); any other typ is not.
--   'at+jwt': only typ at+jwt (RFC 9068 §2.1; application/at+jwt alike)
--             is an access token; everything else is refused. For a
--             provider that types all its access tokens so.
ALTER TABLE oidc_providers
    ADD COLUMN access_tokens text NOT NULL DEFAULT 'claims'
        CONSTRAINT oidc_providers_access_tokens_check CHECK (access_tokens IN ('claims', 'at+jwt'));
