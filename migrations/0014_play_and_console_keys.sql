CREATE TABLE `play_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`play_id` text NOT NULL,
	`play_date` text,
	`play_time` integer NOT NULL,
	`memo` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `play_logs_play_idx` ON `play_logs` (`play_id`,`play_date`);--> statement-breakpoint
CREATE TABLE `play_records` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`game_id` integer NOT NULL,
	`status` text NOT NULL,
	`play_start_date` text,
	`play_end_date` text,
	`clear_target_date` text,
	`rating` integer,
	`memo` text,
	`user_links` text NOT NULL,
	`attribute_ids` text NOT NULL,
	`console_id` text,
	`is_latest` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`revision` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `play_records_user_game_idx` ON `play_records` (`user_id`,`game_id`,`is_latest`);--> statement-breakpoint
CREATE INDEX `play_records_console_idx` ON `play_records` (`console_id`);--> statement-breakpoint
ALTER TABLE `consoles` ADD `name_key` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `consoles` ADD `publisher_key` text;--> statement-breakpoint
-- Consoles stored before the keys: lower() is ASCII-only, close enough until they are next written.
UPDATE `consoles` SET `name_key` = lower(`name`), `publisher_key` = lower(`publisher_name`);
