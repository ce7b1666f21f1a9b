CREATE TABLE `companies` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_kana` text,
	`name_en` text,
	`search_text` text NOT NULL,
	`owner_user_id` text,
	`content_hash` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `game_editions` (
	`id` integer PRIMARY KEY NOT NULL,
	`game_id` integer NOT NULL,
	`position` integer NOT NULL,
	`title` text,
	`model_number` text NOT NULL,
	`release_date` text,
	`price` real,
	`jan_code` text
);
--> statement-breakpoint
CREATE INDEX `game_editions_game_idx` ON `game_editions` (`game_id`,`position`);--> statement-breakpoint
CREATE TABLE `game_terms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`edition_id` integer,
	`field` text NOT NULL,
	`term` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `game_terms_game_idx` ON `game_terms` (`game_id`);--> statement-breakpoint
CREATE INDEX `game_terms_field_term_idx` ON `game_terms` (`field`,`term`);--> statement-breakpoint
CREATE TABLE `games` (
	`id` integer PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`title_reading` text,
	`title_en` text NOT NULL,
	`aliases` text NOT NULL,
	`sort_key` text NOT NULL,
	`platform_id` integer NOT NULL,
	`publisher_id` integer,
	`genre_id` integer,
	`genre_sub_id` integer,
	`release_date` text,
	`jan_code` text,
	`model_number` text NOT NULL,
	`price` real,
	`media_id` text,
	`gps_id` text,
	`db_id` integer,
	`db_slug` text,
	`db_cover_id` text,
	`owner_user_id` text,
	`content_hash` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `games_platform_release_idx` ON `games` (`platform_id`,`release_date`);--> statement-breakpoint
CREATE INDEX `games_release_idx` ON `games` (`release_date`);--> statement-breakpoint
CREATE INDEX `games_sort_key_idx` ON `games` (`sort_key`);--> statement-breakpoint
CREATE INDEX `games_publisher_idx` ON `games` (`publisher_id`);--> statement-breakpoint
CREATE INDEX `games_genre_idx` ON `games` (`genre_id`);--> statement-breakpoint
CREATE INDEX `games_genre_sub_idx` ON `games` (`genre_sub_id`);--> statement-breakpoint
CREATE INDEX `games_db_id_idx` ON `games` (`db_id`);--> statement-breakpoint
CREATE INDEX `games_db_slug_idx` ON `games` (`db_slug`);--> statement-breakpoint
CREATE INDEX `games_owner_idx` ON `games` (`owner_user_id`);--> statement-breakpoint
CREATE TABLE `genres` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`parent_id` integer,
	`taxonomy_key` text NOT NULL,
	`content_hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `genres_taxonomy_key_idx` ON `genres` (`taxonomy_key`);--> statement-breakpoint
CREATE TABLE `master_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `platforms` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_en` text,
	`short_name` text,
	`maker` text,
	`release_date` text,
	`owner_user_id` text,
	`content_hash` text NOT NULL
);
