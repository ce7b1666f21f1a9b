ALTER TABLE `game_rank` ADD `genre_key` text;--> statement-breakpoint
ALTER TABLE `games` ADD `genre_key` text;--> statement-breakpoint
CREATE INDEX `games_genre_key_idx` ON `games` (`genre_key`);--> statement-breakpoint
-- Official games stored before genreKey was a fact of their own: the support genre's key where it
-- lies within the main genre's (what the master export wrote for them), else the main genre's key.
UPDATE `games` SET `genre_key` = coalesce(
  (SELECT s.taxonomy_key FROM `genres` s JOIN `genres` m ON m.id = `games`.genre_id
    WHERE s.id = `games`.genre_sub_id AND substr(s.taxonomy_key, 1, length(m.taxonomy_key) + 1) = m.taxonomy_key || '.'),
  (SELECT m.taxonomy_key FROM `genres` m WHERE m.id = `games`.genre_id)
) WHERE `owner_user_id` IS NULL;
--> statement-breakpoint
-- game_rank carries genre_key too (the genre filter reads it there), last, as ALTER TABLE put it.
DROP VIEW `game_rank_rows`;
--> statement-breakpoint
CREATE VIEW `game_rank_rows` AS
  SELECT id, platform_id, publisher_id, genre_id, genre_sub_id, release_date, owner_user_id,
    '|' || search_title || '|', '|' || search_title_en || '|', '|' || search_alias || '|', genre_key
  FROM games;
--> statement-breakpoint
DROP TRIGGER `game_rank_au`;
--> statement-breakpoint
CREATE TRIGGER `game_rank_au` AFTER UPDATE OF platform_id, publisher_id, genre_id, genre_sub_id, genre_key, release_date, owner_user_id, search_title, search_title_en, search_alias ON `games` BEGIN
  DELETE FROM game_rank WHERE id = old.id;
  INSERT INTO game_rank SELECT * FROM game_rank_rows WHERE id = new.id;
END;
--> statement-breakpoint
UPDATE `game_rank` SET `genre_key` = (SELECT `genre_key` FROM `games` WHERE `games`.id = `game_rank`.id);
