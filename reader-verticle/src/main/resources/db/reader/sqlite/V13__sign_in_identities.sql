-- Which identity at a sign-in provider (its issuer and the subject it names the person by) signs in as which account;
-- an account may have several, an identity one account.
CREATE TABLE user_identities (issuer TEXT NOT NULL, subject TEXT NOT NULL, user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, linked_at TEXT NOT NULL, PRIMARY KEY (issuer, subject));
CREATE INDEX user_identities_user ON user_identities (user_id);
