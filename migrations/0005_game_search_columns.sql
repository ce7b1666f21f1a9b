DROP TABLE `game_terms`;--> statement-breakpoint
ALTER TABLE `games` ADD `search_title` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `games` ADD `search_title_en` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `games` ADD `search_alias` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `games` ADD `search_jan` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `games` ADD `search_edition_jan` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `games` ADD `search_model` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `games` ADD `search_edition_model` text DEFAULT '' NOT NULL;