CREATE TABLE `collection_games` (
	`collection_id` text NOT NULL,
	`game_id` integer NOT NULL,
	`kind` text NOT NULL,
	PRIMARY KEY(`collection_id`, `kind`, `game_id`)
);
--> statement-breakpoint
CREATE TABLE `collections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`description` text,
	`type` text NOT NULL,
	`purpose` text NOT NULL,
	`tag_id` integer,
	`platform_id` integer,
	`genre_id` integer,
	`release_date_from` text,
	`release_date_to` text,
	`revision` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `collections_user_idx` ON `collections` (`user_id`);