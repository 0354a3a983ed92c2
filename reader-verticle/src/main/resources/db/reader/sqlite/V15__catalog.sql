-- The catalog an admin edits, shared by every reader of the database: a series' metadata beyond its files (tags a
-- JSON array of strings; age_rating an AgeRating code, NULL for none) and the collections in the order they were made
-- (series a JSON array of series ids), each with at most one cover image (its bytes, and jpg or png).
CREATE TABLE catalog_series (series TEXT PRIMARY KEY, description TEXT NOT NULL, tags TEXT NOT NULL, age_rating TEXT);
CREATE TABLE catalog_collections (id TEXT PRIMARY KEY, name TEXT NOT NULL, series TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE catalog_covers (collection TEXT PRIMARY KEY REFERENCES catalog_collections(id) ON DELETE CASCADE, extension TEXT NOT NULL, image BLOB NOT NULL);
