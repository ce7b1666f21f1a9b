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
	PRIMARY KEY(`user_id`, `game_id`)
);
