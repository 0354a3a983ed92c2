-- KOReader's document ids of each chapter's CBZ (so that a sync request names a chapter, after a restart too) and
-- each user's last KOReader push per document (its device, and the raw position of a file that names no chapter).
CREATE TABLE kosync_documents (document TEXT PRIMARY KEY, series TEXT NOT NULL, chapter TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('binary','filename')), recorded_at TEXT NOT NULL);
CREATE INDEX kosync_documents_chapter ON kosync_documents (series, chapter);
CREATE TABLE kosync_pushes (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, document TEXT NOT NULL, progress TEXT NOT NULL, percentage REAL NOT NULL, device TEXT NOT NULL, device_id TEXT NOT NULL, pushed_at TEXT NOT NULL, PRIMARY KEY (user_id, document));
