-- The account's time zone decides the person's "today" (default dates, overdue filters); existing
-- accounts get the default, as new ones do.
ALTER TABLE `users` ADD `time_zone` text DEFAULT 'Asia/Tokyo' NOT NULL;--> statement-breakpoint
-- Minutes a play record holds without play logs (a total told afterwards).
ALTER TABLE `play_records` ADD `untracked_play_time` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- play_records.total_play_time is its untracked_play_time plus its logs' play_time (the logs' part
-- is kept by play_logs_total_ai/_ad/_au): these add the untracked part when a record is written.
CREATE TRIGGER `play_records_untracked_ai` AFTER INSERT ON `play_records` WHEN NEW.`untracked_play_time` <> 0 BEGIN
  UPDATE `play_records` SET `total_play_time` = `total_play_time` + NEW.`untracked_play_time` WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `play_records_untracked_au` AFTER UPDATE OF `untracked_play_time` ON `play_records`
  WHEN NEW.`untracked_play_time` <> OLD.`untracked_play_time` BEGIN
  UPDATE `play_records` SET `total_play_time` = `total_play_time` - OLD.`untracked_play_time` + NEW.`untracked_play_time` WHERE `id` = NEW.`id`;
END;
