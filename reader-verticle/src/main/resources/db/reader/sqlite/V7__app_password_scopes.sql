-- What each app password may do (those made before may only read, as before), and the verifier of its KOReader sync
-- key, found by its index.
ALTER TABLE app_passwords ADD COLUMN scope TEXT NOT NULL DEFAULT 'read' CHECK (scope IN ('read','read+progress'));
ALTER TABLE app_passwords ADD COLUMN sync_key TEXT;
CREATE INDEX app_passwords_sync_key ON app_passwords (sync_key);
