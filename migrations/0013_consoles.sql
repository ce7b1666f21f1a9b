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
	`search_key` text NOT NULL,
	`memo` text,
	`rating` integer,
	`buy_date` text,
	`buy_price` real,
	`buy_place` text,
	`publisher_name` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `consoles_user_idx` ON `consoles` (`user_id`,`created_at`);--> statement-breakpoint
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
CREATE INDEX `maintenance_logs_console_idx` ON `maintenance_logs` (`console_id`);