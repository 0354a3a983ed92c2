CREATE TABLE app_passwords (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, name TEXT NOT NULL, lookup TEXT NOT NULL, password_hash TEXT NOT NULL, created_at TEXT NOT NULL, last_used_at TEXT, UNIQUE (user_id, name));
CREATE INDEX app_passwords_lookup ON app_passwords (lookup);
