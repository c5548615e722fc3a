-- A JWT's record was keyed by its `jti` in clear; with the signing secret, a read of the
-- database could then sign a live token. The key becomes the SHA-256 of the `jti`, in
-- base64url without padding, as src/auth/secrets.ts hashSecret() computes it (and as
-- opaque tokens are kept already): tokens issued before the upgrade keep working.
UPDATE tokens
SET id = translate(rtrim(encode(sha256(convert_to(id, 'UTF8')), 'base64'), '='), '+/', '-_')
WHERE kind = 'jwt';
