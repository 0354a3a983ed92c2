-- Which series an admin merged into which other (the series ids as the library names them); kept here rather than
-- in the library folders so that rescans and restarts keep them and a collection stays untouched.
CREATE TABLE series_merges (series TEXT PRIMARY KEY, into_series TEXT NOT NULL, merged_at TEXT NOT NULL, CHECK (series <> into_series));
