CREATE TABLE `oauth_claims` (
	`claim` text PRIMARY KEY NOT NULL,
	`issued` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oauth_claims_expiry_idx` ON `oauth_claims` (`expires_at`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `ended_reason` text;