-- Two search structures kept by triggers, so no application code writes them.
--
-- game_rank: what filtering, ranking and counting a search read of every hit: the filter columns
-- under their games names, and the title forms bracketed as "|a|b|", so exact, prefix and partial
-- tests are plain instr() calls. A hit costs a look-up in this narrow table instead of a read of
-- the wide games row, which is what made searches matching thousands of games slow.
CREATE TABLE `game_rank` (
  `id` integer PRIMARY KEY NOT NULL,
  `platform_id` integer NOT NULL,
  `publisher_id` integer,
  `genre_id` integer,
  `genre_sub_id` integer,
  `release_date` text,
  `owner_user_id` text,
  `title_forms` text NOT NULL,
  `title_en_forms` text NOT NULL,
  `alias_forms` text NOT NULL
);
--> statement-breakpoint
CREATE VIEW `game_rank_rows` AS
  SELECT id, platform_id, publisher_id, genre_id, genre_sub_id, release_date, owner_user_id,
    '|' || search_title || '|', '|' || search_title_en || '|', '|' || search_alias || '|'
  FROM games;
--> statement-breakpoint
INSERT INTO game_rank SELECT * FROM game_rank_rows;
--> statement-breakpoint
CREATE TRIGGER `game_rank_ai` AFTER INSERT ON `games` BEGIN
  INSERT INTO game_rank SELECT * FROM game_rank_rows WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `game_rank_au` AFTER UPDATE OF platform_id, publisher_id, genre_id, genre_sub_id, release_date, owner_user_id, search_title, search_title_en, search_alias ON `games` BEGIN
  DELETE FROM game_rank WHERE id = old.id;
  INSERT INTO game_rank SELECT * FROM game_rank_rows WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `game_rank_ad` AFTER DELETE ON `games` BEGIN
  DELETE FROM game_rank WHERE id = old.id;
END;
--> statement-breakpoint
-- games_chars: terms of one or two characters are too short for the trigram index, so they used
-- to scan every game. This index holds each title form one character per token ("|" between
-- forms), so such a term is a phrase query: "ff" is "f f", found in the posting lists.
CREATE TABLE `char_positions` (`n` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO char_positions (n)
  WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 8192)
  SELECT n FROM counter;
--> statement-breakpoint
CREATE VIEW `game_title_text` AS
  SELECT id, search_title || '|' || search_title_en || '|' || search_alias AS text FROM games;
--> statement-breakpoint
CREATE VIEW `game_chars_rows` AS
  SELECT t.id, (SELECT group_concat(substr(t.text, p.n, 1), ' ' ORDER BY p.n) FROM char_positions p WHERE p.n <= length(t.text)) AS chars
  FROM game_title_text t;
--> statement-breakpoint
CREATE VIRTUAL TABLE `games_chars` USING fts5(
  chars, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0 tokenchars '|'"
);
--> statement-breakpoint
INSERT INTO games_chars (rowid, chars) SELECT id, chars FROM game_chars_rows;
--> statement-breakpoint
CREATE TRIGGER `games_chars_ai` AFTER INSERT ON `games` BEGIN
  INSERT INTO games_chars (rowid, chars) SELECT id, chars FROM game_chars_rows WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `games_chars_au` AFTER UPDATE OF search_title, search_title_en, search_alias ON `games` BEGIN
  DELETE FROM games_chars WHERE rowid = old.id;
  INSERT INTO games_chars (rowid, chars) SELECT id, chars FROM game_chars_rows WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `games_chars_ad` AFTER DELETE ON `games` BEGIN
  DELETE FROM games_chars WHERE rowid = old.id;
END;
--> statement-breakpoint
-- Both replace the short-term scan table.
DROP TRIGGER `games_text_ai`;
--> statement-breakpoint
DROP TRIGGER `games_text_ad`;
--> statement-breakpoint
DROP TRIGGER `games_text_au`;
--> statement-breakpoint
DROP TABLE `games_text`;
