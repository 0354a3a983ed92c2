-- When each user last opened the library, for its "New" badges.
CREATE TABLE library_visits (user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE, since TEXT, last_at TEXT NOT NULL);
