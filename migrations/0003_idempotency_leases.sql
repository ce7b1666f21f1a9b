ALTER TABLE `idempotency_keys` ADD `claim_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `lease_until` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `saved` integer DEFAULT false NOT NULL;