-- Imports (src/tools/imports): one row per import job, and the ids a restore re-issued.
-- Hand-written (CREATE ... IF NOT EXISTS) so it applies whatever other schema edits are in flight.
CREATE TABLE IF NOT EXISTS `import_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`source` text NOT NULL,
	`mode` text NOT NULL,
	`state` text NOT NULL,
	`dataset` text,
	`file_name` text,
	`byte_size` integer,
	`total_rows` integer,
	`next_offset` integer DEFAULT 0 NOT NULL,
	`rows_done` integer DEFAULT 0 NOT NULL,
	`rows_added` integer DEFAULT 0 NOT NULL,
	`rows_existing` integer DEFAULT 0 NOT NULL,
	`rows_failed` integer DEFAULT 0 NOT NULL,
	`problems` text DEFAULT '[]' NOT NULL,
	`last_error` text,
	`units_charged` integer DEFAULT 0 NOT NULL,
	`lease_id` text,
	`lease_until` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `import_jobs_user_idx` ON `import_jobs` (`user_id`, `created_at`);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `import_id_map` (
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`old_id` text NOT NULL,
	`new_id` text NOT NULL,
	PRIMARY KEY(`user_id`, `kind`, `old_id`)
);
