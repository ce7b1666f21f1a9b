-- Used confirmTokens (src/platform/confirm.ts): the batch a token authorises inserts the token's row,
-- so the PRIMARY KEY refuses a second use however concurrent confirmations interleave. Rows are
-- pruned once the token itself expired (expires_at index).
CREATE TABLE `consumed_confirm_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`use_id` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consumed_confirm_tokens_expires_idx` ON `consumed_confirm_tokens` (`expires_at`);
