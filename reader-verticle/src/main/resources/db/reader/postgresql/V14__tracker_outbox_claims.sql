-- Until when a delivery holds a pending tracker update (epoch ms; 0 = not held): a due update is claimed by one
-- reader's delivery, so that several readers over one database send it once; a claim not released (a reader that
-- stopped mid-delivery) lapses at this time and the update is due again.
ALTER TABLE tracker_outbox ADD COLUMN claimed_until_ms BIGINT NOT NULL DEFAULT 0;
