-- The web pages' tables: one-time login codes (hashed) and who may use the administration page.
CREATE TABLE web_login_codes (
  code_hash TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX web_login_codes_account ON web_login_codes (account_id);

CREATE TABLE web_admins (
  account_id BIGINT PRIMARY KEY,
  granted_at BIGINT NOT NULL
);
