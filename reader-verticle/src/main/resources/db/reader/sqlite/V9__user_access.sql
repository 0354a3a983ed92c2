-- What each account may see: its libraries (NULL for every library, else their names joined by commas, which a
-- library name cannot hold), its age limit and whether a limited account sees unrated series. Accounts made before
-- see everything, as they did.
ALTER TABLE users ADD COLUMN access_libraries TEXT;
ALTER TABLE users ADD COLUMN age_limit TEXT NOT NULL DEFAULT 'none' CHECK (age_limit IN ('none','all','9','12','15','18'));
ALTER TABLE users ADD COLUMN unrated_shown INTEGER NOT NULL DEFAULT 0;
