-- The burst limit moves from KV to D1: KV has neither atomic increments nor read-after-write
-- consistency, so concurrent calls all read the same count. One row per key, bumped in the
-- admission batch that already charges the daily quota (no extra round trip).
CREATE TABLE IF NOT EXISTS `burst_counters` (
	`key_id` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
