DROP INDEX `games_platform_release_idx`;--> statement-breakpoint
CREATE INDEX `games_platform_release_owner_idx` ON `games` (`platform_id`,`release_date`,`owner_user_id`);--> statement-breakpoint
CREATE INDEX `games_platform_title_owner_idx` ON `games` (`platform_id`,`sort_key`,`owner_user_id`);