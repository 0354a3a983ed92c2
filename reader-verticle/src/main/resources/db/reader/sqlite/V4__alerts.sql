CREATE TABLE alert_targets (user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE, type TEXT NOT NULL CHECK (type IN ('ntfy','webhook')), url TEXT NOT NULL, topic TEXT NOT NULL, token TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE series_alerts (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, series TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (user_id, series));
CREATE INDEX series_alerts_series ON series_alerts (series);
