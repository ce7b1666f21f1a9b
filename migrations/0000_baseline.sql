CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text,
	`display_prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `attributes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`label` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attributes_user_label_idx` ON `attributes` (`user_id`,`label`);--> statement-breakpoint
CREATE TABLE `burst_counters` (
	`key_id` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `char_positions` (
	`n` integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
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
CREATE INDEX `collections_user_idx` ON `collections` (`user_id`);--> statement-breakpoint
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
CREATE UNIQUE INDEX `companies_owner_name_idx` ON `companies` (`owner_user_id`,`name`);--> statement-breakpoint
CREATE TABLE `console_platforms` (
	`console_id` text NOT NULL,
	`platform_id` integer NOT NULL,
	`priority` integer NOT NULL,
	PRIMARY KEY(`console_id`, `platform_id`)
);
--> statement-breakpoint
CREATE TABLE `consoles` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`name_kana` text,
	`memo` text,
	`rating` integer,
	`buy_date` text,
	`buy_price` real,
	`buy_place` text,
	`publisher_name` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`name_key` text DEFAULT '' NOT NULL,
	`publisher_key` text
);
--> statement-breakpoint
CREATE INDEX `consoles_user_idx` ON `consoles` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `consoles_user_rating_desc_idx` ON `consoles` (`user_id`,("rating" IS NULL),"rating" desc,`id`);--> statement-breakpoint
CREATE TABLE `consumed_confirm_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`use_id` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consumed_confirm_tokens_expires_idx` ON `consumed_confirm_tokens` (`expires_at`);--> statement-breakpoint
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
CREATE INDEX `game_editions_jan_idx` ON `game_editions` (`jan_code`);--> statement-breakpoint
CREATE TABLE `game_rank` (
	`id` integer PRIMARY KEY NOT NULL,
	`platform_id` integer NOT NULL,
	`publisher_id` integer,
	`genre_id` integer,
	`genre_sub_id` integer,
	`release_date` text,
	`owner_user_id` text,
	`title_forms` text NOT NULL,
	`title_en_forms` text NOT NULL,
	`alias_forms` text NOT NULL
);
--> statement-breakpoint
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
	`content_hash` text NOT NULL,
	`search_title` text DEFAULT '' NOT NULL,
	`search_title_en` text DEFAULT '' NOT NULL,
	`search_alias` text DEFAULT '' NOT NULL,
	`search_model` text DEFAULT '' NOT NULL,
	`search_edition_model` text DEFAULT '' NOT NULL,
	`search_edition_title` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `games_platform_release_owner_idx` ON `games` (`platform_id`,`release_date`,`owner_user_id`);--> statement-breakpoint
CREATE INDEX `games_platform_title_owner_idx` ON `games` (`platform_id`,`sort_key`,`owner_user_id`);--> statement-breakpoint
CREATE INDEX `games_release_idx` ON `games` (`release_date`);--> statement-breakpoint
CREATE INDEX `games_release_nulls_last_idx` ON `games` (("release_date" IS NULL),`release_date`);--> statement-breakpoint
CREATE INDEX `games_sort_key_idx` ON `games` (`sort_key`);--> statement-breakpoint
CREATE INDEX `games_publisher_idx` ON `games` (`publisher_id`);--> statement-breakpoint
CREATE INDEX `games_genre_idx` ON `games` (`genre_id`);--> statement-breakpoint
CREATE INDEX `games_genre_sub_idx` ON `games` (`genre_sub_id`);--> statement-breakpoint
CREATE INDEX `games_db_id_idx` ON `games` (`db_id`);--> statement-breakpoint
CREATE INDEX `games_db_slug_idx` ON `games` (`db_slug`);--> statement-breakpoint
CREATE INDEX `games_owner_idx` ON `games` (`owner_user_id`);--> statement-breakpoint
CREATE INDEX `games_jan_idx` ON `games` (`jan_code`);--> statement-breakpoint
CREATE TABLE `genres` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`parent_id` integer,
	`taxonomy_key` text NOT NULL,
	`content_hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `genres_taxonomy_key_idx` ON `genres` (`taxonomy_key`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`user_id` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`response` text,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `idempotency_key`)
);
--> statement-breakpoint
CREATE TABLE `import_id_map` (
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`old_id` text NOT NULL,
	`new_id` text NOT NULL,
	PRIMARY KEY(`user_id`, `kind`, `old_id`)
);
--> statement-breakpoint
CREATE TABLE `import_jobs` (
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
	`expires_at` text NOT NULL,
	`staged_key` text
);
--> statement-breakpoint
CREATE INDEX `import_jobs_user_idx` ON `import_jobs` (`user_id`,`created_at`);--> statement-breakpoint
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
	`buy_place_key` text,
	`game_sort_key` text,
	`game_release_date` text,
	PRIMARY KEY(`user_id`, `game_id`)
);
--> statement-breakpoint
CREATE INDEX `library_user_updated_idx` ON `library_entries` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `library_entries_game_idx` ON `library_entries` (`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_updated_desc_idx` ON `library_entries` (`user_id`,("updated_at" IS NULL),"updated_at" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_updated_asc_idx` ON `library_entries` (`user_id`,("updated_at" IS NULL),"updated_at" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_buy_date_desc_idx` ON `library_entries` (`user_id`,("buy_date" IS NULL),"buy_date" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_buy_date_asc_idx` ON `library_entries` (`user_id`,("buy_date" IS NULL),"buy_date" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_buy_price_desc_idx` ON `library_entries` (`user_id`,("buy_price" IS NULL),"buy_price" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_buy_price_asc_idx` ON `library_entries` (`user_id`,("buy_price" IS NULL),"buy_price" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_rating_desc_idx` ON `library_entries` (`user_id`,("rating" IS NULL),"rating" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_rating_asc_idx` ON `library_entries` (`user_id`,("rating" IS NULL),"rating" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_game_sort_key_desc_idx` ON `library_entries` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_game_sort_key_asc_idx` ON `library_entries` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_game_release_date_desc_idx` ON `library_entries` (`user_id`,("game_release_date" IS NULL),"game_release_date" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_game_release_date_asc_idx` ON `library_entries` (`user_id`,("game_release_date" IS NULL),"game_release_date" asc,`game_id`);--> statement-breakpoint
CREATE TABLE `maintenance_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`console_id` text NOT NULL,
	`title` text NOT NULL,
	`memo` text,
	`status` text NOT NULL,
	`scheduled_date` text,
	`completed_date` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `maintenance_logs_console_idx` ON `maintenance_logs` (`console_id`);--> statement-breakpoint
CREATE TABLE `master_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `physical_copies` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`game_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`is_active` integer NOT NULL,
	`rating` integer,
	`buy_date` text,
	`buy_price` real,
	`buy_place` text,
	`memo` text,
	`attribute_ids` text NOT NULL,
	`edition_kind` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `physical_copies_user_game_idx` ON `physical_copies` (`user_id`,`game_id`,`created_at`);--> statement-breakpoint
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
--> statement-breakpoint
CREATE UNIQUE INDEX `platforms_owner_name_idx` ON `platforms` (`owner_user_id`,`name`);--> statement-breakpoint
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
	`revision` text NOT NULL,
	`game_sort_key` text,
	`total_play_time` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `play_records_user_game_idx` ON `play_records` (`user_id`,`game_id`,`is_latest`);--> statement-breakpoint
CREATE INDEX `play_records_console_idx` ON `play_records` (`console_id`);--> statement-breakpoint
CREATE INDEX `play_records_game_idx` ON `play_records` (`game_id`);--> statement-breakpoint
CREATE INDEX `play_records_latest_updated_desc_idx` ON `play_records` (`user_id`,("updated_at" IS NULL),"updated_at" desc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_updated_asc_idx` ON `play_records` (`user_id`,("updated_at" IS NULL),"updated_at" asc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_play_start_date_desc_idx` ON `play_records` (`user_id`,("play_start_date" IS NULL),"play_start_date" desc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_play_start_date_asc_idx` ON `play_records` (`user_id`,("play_start_date" IS NULL),"play_start_date" asc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_play_end_date_desc_idx` ON `play_records` (`user_id`,("play_end_date" IS NULL),"play_end_date" desc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_play_end_date_asc_idx` ON `play_records` (`user_id`,("play_end_date" IS NULL),"play_end_date" asc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_clear_target_date_desc_idx` ON `play_records` (`user_id`,("clear_target_date" IS NULL),"clear_target_date" desc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_clear_target_date_asc_idx` ON `play_records` (`user_id`,("clear_target_date" IS NULL),"clear_target_date" asc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_rating_desc_idx` ON `play_records` (`user_id`,("rating" IS NULL),"rating" desc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_rating_asc_idx` ON `play_records` (`user_id`,("rating" IS NULL),"rating" asc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_game_sort_key_desc_idx` ON `play_records` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" desc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_game_sort_key_asc_idx` ON `play_records` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" asc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_total_play_time_desc_idx` ON `play_records` (`user_id`,("total_play_time" IS NULL),"total_play_time" desc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_total_play_time_asc_idx` ON `play_records` (`user_id`,("total_play_time" IS NULL),"total_play_time" asc,`game_id`) WHERE "play_records"."is_latest" = 1;--> statement-breakpoint
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
CREATE UNIQUE INDEX `tags_user_name_idx` ON `tags` (`user_id`,`name`);--> statement-breakpoint
CREATE TABLE `usage_daily` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`user_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`plan` text NOT NULL,
	`suspended` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `wishlist_entries` (
	`user_id` text NOT NULL,
	`game_id` integer NOT NULL,
	`priority` integer,
	`wish_date` text,
	`wish_price` real,
	`wish_place` text,
	`memo` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`revision` text NOT NULL,
	`wish_place_key` text,
	`game_sort_key` text,
	`game_release_date` text,
	PRIMARY KEY(`user_id`, `game_id`)
);
--> statement-breakpoint
CREATE INDEX `wishlist_entries_game_idx` ON `wishlist_entries` (`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_priority_desc_idx` ON `wishlist_entries` (`user_id`,("priority" IS NULL),"priority" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_priority_asc_idx` ON `wishlist_entries` (`user_id`,("priority" IS NULL),"priority" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_created_desc_idx` ON `wishlist_entries` (`user_id`,("created_at" IS NULL),"created_at" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_created_asc_idx` ON `wishlist_entries` (`user_id`,("created_at" IS NULL),"created_at" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_wish_date_desc_idx` ON `wishlist_entries` (`user_id`,("wish_date" IS NULL),"wish_date" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_wish_date_asc_idx` ON `wishlist_entries` (`user_id`,("wish_date" IS NULL),"wish_date" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_wish_price_desc_idx` ON `wishlist_entries` (`user_id`,("wish_price" IS NULL),"wish_price" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_wish_price_asc_idx` ON `wishlist_entries` (`user_id`,("wish_price" IS NULL),"wish_price" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_game_sort_key_desc_idx` ON `wishlist_entries` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_game_sort_key_asc_idx` ON `wishlist_entries` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_game_release_date_desc_idx` ON `wishlist_entries` (`user_id`,("game_release_date" IS NULL),"game_release_date" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_game_release_date_asc_idx` ON `wishlist_entries` (`user_id`,("game_release_date" IS NULL),"game_release_date" asc,`game_id`);--> statement-breakpoint
CREATE TABLE `write_guards` (
	`broken` integer,
	CONSTRAINT "write_guards_never" CHECK("write_guards"."broken" IS NULL)
);
