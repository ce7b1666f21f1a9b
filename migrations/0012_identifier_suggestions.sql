CREATE TABLE `identifier_suggestions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`game_id` integer NOT NULL,
	`game_edition_id` integer,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`search_value` text NOT NULL,
	`note` text,
	`status` text DEFAULT 'open' NOT NULL,
	`conflict_game_id` integer,
	`reviewed_by` text,
	`review_reason` text,
	`reviewed_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identifier_suggestions_open_idx` ON `identifier_suggestions` (`user_id`,`game_id`,`kind`) WHERE "identifier_suggestions"."status" = 'open';--> statement-breakpoint
CREATE INDEX `identifier_suggestions_user_idx` ON `identifier_suggestions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `identifier_suggestions_value_idx` ON `identifier_suggestions` (`kind`,`search_value`,`status`);--> statement-breakpoint
CREATE INDEX `identifier_suggestions_status_idx` ON `identifier_suggestions` (`status`,`created_at`);