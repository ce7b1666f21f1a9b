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
CREATE TABLE `write_guards` (
	`broken` integer,
	CONSTRAINT "write_guards_never" CHECK("write_guards"."broken" IS NULL)
);
