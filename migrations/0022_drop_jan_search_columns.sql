ALTER TABLE `games` DROP COLUMN `search_jan`;--> statement-breakpoint
ALTER TABLE `games` DROP COLUMN `search_edition_jan`;