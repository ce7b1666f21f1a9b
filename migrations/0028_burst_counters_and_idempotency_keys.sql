-- burst_counters: the burst limit leaves KV (no atomic increment, no read-after-write consistency)
-- for a per-key counter bumped in the admission batch. idempotency_keys: Idempotency-Key claims
-- and stored answers of REST writes (24 h).
CREATE TABLE IF NOT EXISTS `burst_counters` (
	`key_id` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `idempotency_keys` (
	`user_id` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`response` text,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `idempotency_key`)
);
