-- When a password reset last ended a user's app passwords, and how many, for their profile page.
ALTER TABLE users ADD COLUMN app_passwords_ended_at TEXT;
ALTER TABLE users ADD COLUMN app_passwords_ended INTEGER NOT NULL DEFAULT 0;
