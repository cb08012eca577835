-- 0003: a tenant's default validation policy (docs/decisions/0042): the
-- name of one of the validator's configured policies, applied to the
-- tenant's validations that name none; '' means the validator's default.
ALTER TABLE tenants
    ADD COLUMN validation_policy text NOT NULL DEFAULT '';
