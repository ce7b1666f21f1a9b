CREATE TABLE `tag_games` (
	`tag_id` integer NOT NULL,
	`game_id` integer NOT NULL,
	PRIMARY KEY(`tag_id`, `game_id`)
);
--> statement-breakpoint
CREATE INDEX `tag_games_game_idx` ON `tag_games` (`game_id`);--> statement-breakpoint
CREATE TABLE `tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`name_kana` text,
	`color` text,
	`description` text,
	`revision` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_user_name_idx` ON `tags` (`user_id`,`name`);