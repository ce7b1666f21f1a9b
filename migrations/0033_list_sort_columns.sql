-- Sorts that read another table now read a column of the list's own rows, so they too get an index
-- that starts with the user (issue 15): a library or wishlist sorted by title or release date, play
-- records by title or total play time. Without them a page of those sorts joined and sorted every
-- row of the user's list (5,000 entries: ~17 ms of database work per page).
--   game_sort_key, game_release_date: the game's sort_key and release_date, copied into each list row
--     when the row is written and again whenever the game's change (triggers below, so every write
--     path, master imports and custom game edits included, keeps them equal);
--   total_play_time: the sum of the record's play logs, kept by triggers on play_logs.
-- game_id indexes let a changed game find the rows that copy it.
-- Written by hand (drizzle-kit cannot write triggers); the columns and indexes are declared in
-- src/db/schema.ts as well.
ALTER TABLE `library_entries` ADD `game_sort_key` text;--> statement-breakpoint
ALTER TABLE `library_entries` ADD `game_release_date` text;--> statement-breakpoint
ALTER TABLE `wishlist_entries` ADD `game_sort_key` text;--> statement-breakpoint
ALTER TABLE `wishlist_entries` ADD `game_release_date` text;--> statement-breakpoint
ALTER TABLE `play_records` ADD `game_sort_key` text;--> statement-breakpoint
ALTER TABLE `play_records` ADD `total_play_time` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `library_entries` SET `game_sort_key` = (SELECT `sort_key` FROM `games` WHERE `id` = `game_id`), `game_release_date` = (SELECT `release_date` FROM `games` WHERE `id` = `game_id`);--> statement-breakpoint
UPDATE `wishlist_entries` SET `game_sort_key` = (SELECT `sort_key` FROM `games` WHERE `id` = `game_id`), `game_release_date` = (SELECT `release_date` FROM `games` WHERE `id` = `game_id`);--> statement-breakpoint
UPDATE `play_records` SET `game_sort_key` = (SELECT `sort_key` FROM `games` WHERE `id` = `game_id`), `total_play_time` = (SELECT COALESCE(SUM(`play_time`), 0) FROM `play_logs` WHERE `play_id` = `play_records`.`id`);--> statement-breakpoint
CREATE INDEX `library_entries_game_idx` ON `library_entries` (`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_entries_game_idx` ON `wishlist_entries` (`game_id`);--> statement-breakpoint
CREATE INDEX `play_records_game_idx` ON `play_records` (`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_game_sort_key_desc_idx` ON `library_entries` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_game_sort_key_asc_idx` ON `library_entries` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_game_release_date_desc_idx` ON `library_entries` (`user_id`,("game_release_date" IS NULL),"game_release_date" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `library_user_game_release_date_asc_idx` ON `library_entries` (`user_id`,("game_release_date" IS NULL),"game_release_date" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_game_sort_key_desc_idx` ON `wishlist_entries` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_game_sort_key_asc_idx` ON `wishlist_entries` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_game_release_date_desc_idx` ON `wishlist_entries` (`user_id`,("game_release_date" IS NULL),"game_release_date" desc,`game_id`);--> statement-breakpoint
CREATE INDEX `wishlist_user_game_release_date_asc_idx` ON `wishlist_entries` (`user_id`,("game_release_date" IS NULL),"game_release_date" asc,`game_id`);--> statement-breakpoint
CREATE INDEX `play_records_latest_game_sort_key_desc_idx` ON `play_records` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" desc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_game_sort_key_asc_idx` ON `play_records` (`user_id`,("game_sort_key" IS NULL),"game_sort_key" asc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_total_play_time_desc_idx` ON `play_records` (`user_id`,("total_play_time" IS NULL),"total_play_time" desc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX `play_records_latest_total_play_time_asc_idx` ON `play_records` (`user_id`,("total_play_time" IS NULL),"total_play_time" asc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE TRIGGER `library_entries_game_copy_ai` AFTER INSERT ON `library_entries` BEGIN
  UPDATE `library_entries` SET `game_sort_key` = (SELECT `sort_key` FROM `games` WHERE `id` = NEW.`game_id`),
    `game_release_date` = (SELECT `release_date` FROM `games` WHERE `id` = NEW.`game_id`) WHERE `rowid` = NEW.`rowid`;
END;--> statement-breakpoint
CREATE TRIGGER `wishlist_entries_game_copy_ai` AFTER INSERT ON `wishlist_entries` BEGIN
  UPDATE `wishlist_entries` SET `game_sort_key` = (SELECT `sort_key` FROM `games` WHERE `id` = NEW.`game_id`),
    `game_release_date` = (SELECT `release_date` FROM `games` WHERE `id` = NEW.`game_id`) WHERE `rowid` = NEW.`rowid`;
END;--> statement-breakpoint
CREATE TRIGGER `play_records_game_copy_ai` AFTER INSERT ON `play_records` BEGIN
  UPDATE `play_records` SET `game_sort_key` = (SELECT `sort_key` FROM `games` WHERE `id` = NEW.`game_id`) WHERE `rowid` = NEW.`rowid`;
END;--> statement-breakpoint
CREATE TRIGGER `games_list_copies_au` AFTER UPDATE OF `sort_key`, `release_date` ON `games`
  WHEN OLD.`sort_key` IS NOT NEW.`sort_key` OR OLD.`release_date` IS NOT NEW.`release_date` BEGIN
  UPDATE `library_entries` SET `game_sort_key` = NEW.`sort_key`, `game_release_date` = NEW.`release_date` WHERE `game_id` = NEW.`id`;
  UPDATE `wishlist_entries` SET `game_sort_key` = NEW.`sort_key`, `game_release_date` = NEW.`release_date` WHERE `game_id` = NEW.`id`;
  UPDATE `play_records` SET `game_sort_key` = NEW.`sort_key` WHERE `game_id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `play_logs_total_ai` AFTER INSERT ON `play_logs` BEGIN
  UPDATE `play_records` SET `total_play_time` = `total_play_time` + NEW.`play_time` WHERE `id` = NEW.`play_id`;
END;--> statement-breakpoint
CREATE TRIGGER `play_logs_total_ad` AFTER DELETE ON `play_logs` BEGIN
  UPDATE `play_records` SET `total_play_time` = `total_play_time` - OLD.`play_time` WHERE `id` = OLD.`play_id`;
END;--> statement-breakpoint
CREATE TRIGGER `play_logs_total_au` AFTER UPDATE OF `play_time`, `play_id` ON `play_logs` BEGIN
  UPDATE `play_records` SET `total_play_time` = `total_play_time` - OLD.`play_time` WHERE `id` = OLD.`play_id`;
  UPDATE `play_records` SET `total_play_time` = `total_play_time` + NEW.`play_time` WHERE `id` = NEW.`play_id`;
END;
