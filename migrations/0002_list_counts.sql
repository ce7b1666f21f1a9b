-- How many rows each of a user's lists holds (play: latest cycles), so a whole list's total and its
-- plan limit read one row instead of counting the list. The table is generated from schema.ts; the
-- triggers and the backfill below are written by hand (drizzle-kit cannot write triggers). A count
-- row is created at 0 the first time a list gains a row, then moved by one per insert and delete.
CREATE TABLE `list_counts` (
	`user_id` text NOT NULL,
	`list` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`user_id`, `list`)
);--> statement-breakpoint
INSERT INTO `list_counts` (`user_id`, `list`, `n`) SELECT `user_id`, 'library', COUNT(*) FROM `library_entries` GROUP BY `user_id`;--> statement-breakpoint
INSERT INTO `list_counts` (`user_id`, `list`, `n`) SELECT `user_id`, 'wishlist', COUNT(*) FROM `wishlist_entries` GROUP BY `user_id`;--> statement-breakpoint
INSERT INTO `list_counts` (`user_id`, `list`, `n`) SELECT `user_id`, 'play', COUNT(*) FROM `play_records` WHERE `is_latest` = 1 GROUP BY `user_id`;--> statement-breakpoint
CREATE TRIGGER `library_entries_count_ai` AFTER INSERT ON `library_entries` BEGIN
  INSERT OR IGNORE INTO `list_counts` (`user_id`, `list`, `n`) VALUES (NEW.`user_id`, 'library', 0);
  UPDATE `list_counts` SET `n` = `n` + 1 WHERE `user_id` = NEW.`user_id` AND `list` = 'library';
END;--> statement-breakpoint
CREATE TRIGGER `library_entries_count_ad` AFTER DELETE ON `library_entries` BEGIN
  UPDATE `list_counts` SET `n` = `n` - 1 WHERE `user_id` = OLD.`user_id` AND `list` = 'library';
END;--> statement-breakpoint
CREATE TRIGGER `wishlist_entries_count_ai` AFTER INSERT ON `wishlist_entries` BEGIN
  INSERT OR IGNORE INTO `list_counts` (`user_id`, `list`, `n`) VALUES (NEW.`user_id`, 'wishlist', 0);
  UPDATE `list_counts` SET `n` = `n` + 1 WHERE `user_id` = NEW.`user_id` AND `list` = 'wishlist';
END;--> statement-breakpoint
CREATE TRIGGER `wishlist_entries_count_ad` AFTER DELETE ON `wishlist_entries` BEGIN
  UPDATE `list_counts` SET `n` = `n` - 1 WHERE `user_id` = OLD.`user_id` AND `list` = 'wishlist';
END;--> statement-breakpoint
CREATE TRIGGER `play_records_count_ai` AFTER INSERT ON `play_records` WHEN NEW.`is_latest` = 1 BEGIN
  INSERT OR IGNORE INTO `list_counts` (`user_id`, `list`, `n`) VALUES (NEW.`user_id`, 'play', 0);
  UPDATE `list_counts` SET `n` = `n` + 1 WHERE `user_id` = NEW.`user_id` AND `list` = 'play';
END;--> statement-breakpoint
CREATE TRIGGER `play_records_count_ad` AFTER DELETE ON `play_records` WHEN OLD.`is_latest` = 1 BEGIN
  UPDATE `list_counts` SET `n` = `n` - 1 WHERE `user_id` = OLD.`user_id` AND `list` = 'play';
END;--> statement-breakpoint
CREATE TRIGGER `play_records_count_au` AFTER UPDATE OF `is_latest` ON `play_records` WHEN OLD.`is_latest` IS NOT NEW.`is_latest` BEGIN
  INSERT OR IGNORE INTO `list_counts` (`user_id`, `list`, `n`) VALUES (NEW.`user_id`, 'play', 0);
  UPDATE `list_counts` SET `n` = `n` + (CASE WHEN NEW.`is_latest` = 1 THEN 1 ELSE -1 END) WHERE `user_id` = NEW.`user_id` AND `list` = 'play';
END;
