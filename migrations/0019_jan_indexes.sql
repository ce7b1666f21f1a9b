CREATE INDEX `game_editions_jan_idx` ON `game_editions` (`jan_code`);--> statement-breakpoint
CREATE INDEX `games_jan_idx` ON `games` (`jan_code`);