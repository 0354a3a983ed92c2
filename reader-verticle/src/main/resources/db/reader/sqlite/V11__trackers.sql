-- Users' tracker sign-ins (tokens only as the tracker token vault sealed them), their series linked to tracker
-- entries, and the tracker outbox: at most one pending update per (user, tracker, series). The outbox's due time is
-- epoch milliseconds, so that it compares as a number (ISO text of instants does not sort by time when fractions
-- differ). Versions come from one counter that only grows, so an update removed and requested again is newer than
-- any delivery of its predecessor.
CREATE TABLE tracker_accounts (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, tracker TEXT NOT NULL, sealed_access TEXT NOT NULL, sealed_refresh TEXT, expires_at TEXT, account_id TEXT NOT NULL, account_name TEXT NOT NULL, needs_sign_in INTEGER NOT NULL DEFAULT 0, problem TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (user_id, tracker));
CREATE TABLE tracker_links (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, tracker TEXT NOT NULL, series TEXT NOT NULL, remote_id TEXT NOT NULL, title TEXT NOT NULL, automatic INTEGER NOT NULL, list_entry_id TEXT, tracker_progress INTEGER, tracker_status TEXT, total_chapters INTEGER, last_push_at TEXT, last_sync_at TEXT, last_error TEXT NOT NULL, pull_offered INTEGER, linked_at TEXT NOT NULL, PRIMARY KEY (user_id, tracker, series));
CREATE TABLE tracker_outbox (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, tracker TEXT NOT NULL, series TEXT NOT NULL, due_ms INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL, last_error TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (user_id, tracker, series));
CREATE INDEX tracker_outbox_due ON tracker_outbox (due_ms);
CREATE TABLE tracker_outbox_version (last INTEGER NOT NULL);
INSERT INTO tracker_outbox_version (last) VALUES (0);
