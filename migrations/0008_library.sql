CREATE TABLE `library_entries` (
	`user_id` text NOT NULL,
	`game_id` integer NOT NULL,
	`rating` integer,
	`buy_date` text,
	`buy_price` real,
	`buy_place` text,
	`memo` text,
	`user_links` text NOT NULL,
	`attribute_ids` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`revision` text NOT NULL,
	PRIMARY KEY(`user_id`, `game_id`)
);
--> statement-breakpoint
CREATE INDEX `library_user_updated_idx` ON `library_entries` (`user_id`,`updated_at`);--> statement-breakpoint
ALTER TABLE `games` ADD `search_edition_title` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Existing games need their edition titles indexed: the next import rewrites them.
UPDATE `games` SET `content_hash` = '';
