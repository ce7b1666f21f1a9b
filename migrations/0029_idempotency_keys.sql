-- Idempotency-Key on REST writes: the first request with a key claims it (pending) in one atomic
-- insert, and stores its answer once done; a retry with the same key and arguments replays it.
CREATE TABLE IF NOT EXISTS `idempotency_keys` (
	`user_id` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`response` text,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `idempotency_key`)
);
