-- What drizzle-kit cannot generate, written by hand: views, FTS5 virtual tables, triggers and seed
-- rows. Every structure here is derived from other rows and kept in step by triggers on every write
-- path (tools, master imports, custom game edits), so no application code writes it. The plain
-- tables and columns it fills (game_rank, char_positions, the list rows' game copies, total play
-- time) are declared in src/db/schema.ts, section "Kept by triggers", and created by 0000_baseline.

-- game_rank: what a search reads of every hit to filter, rank and count it: the filter columns
-- under their games names, and each title form list bracketed "|a|b|" so that exact, prefix and
-- partial tests are plain instr() calls. A hit costs a look-up in this narrow table instead of a
-- read of the wide games row, which made searches matching thousands of games slow.
CREATE VIEW `game_rank_rows` AS
  SELECT id, platform_id, publisher_id, genre_id, genre_sub_id, release_date, owner_user_id,
    '|' || search_title || '|', '|' || search_title_en || '|', '|' || search_alias || '|'
  FROM games;
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
-- games_fts: one trigram row per game over its title forms and model numbers, for substring terms
-- of three or more characters in any script, returning game ids directly. External content: games
-- stays the source of truth. JAN codes are left out (plain indexes find them): 13-digit codes share
-- trigrams such as "000", which made the posting lists long.
CREATE VIRTUAL TABLE `games_fts` USING fts5(
  search_title, search_title_en, search_alias, search_model, search_edition_model,
  content='games', content_rowid='id', tokenize='trigram'
);
--> statement-breakpoint
CREATE TRIGGER `games_fts_ai` AFTER INSERT ON `games` BEGIN
  INSERT INTO games_fts(rowid, search_title, search_title_en, search_alias, search_model, search_edition_model)
  VALUES (new.id, new.search_title, new.search_title_en, new.search_alias, new.search_model, new.search_edition_model);
END;
--> statement-breakpoint
CREATE TRIGGER `games_fts_ad` AFTER DELETE ON `games` BEGIN
  INSERT INTO games_fts(games_fts, rowid, search_title, search_title_en, search_alias, search_model, search_edition_model)
  VALUES ('delete', old.id, old.search_title, old.search_title_en, old.search_alias, old.search_model, old.search_edition_model);
END;
--> statement-breakpoint
CREATE TRIGGER `games_fts_au` AFTER UPDATE OF search_title, search_title_en, search_alias, search_model, search_edition_model ON `games` BEGIN
  INSERT INTO games_fts(games_fts, rowid, search_title, search_title_en, search_alias, search_model, search_edition_model)
  VALUES ('delete', old.id, old.search_title, old.search_title_en, old.search_alias, old.search_model, old.search_edition_model);
  INSERT INTO games_fts(rowid, search_title, search_title_en, search_alias, search_model, search_edition_model)
  VALUES (new.id, new.search_title, new.search_title_en, new.search_alias, new.search_model, new.search_edition_model);
END;
--> statement-breakpoint
-- games_grams: terms of one or two characters are too short for trigrams. Here every character and
-- every adjacent pair of a game's forms is its own token (forms are joined by "|" and no pair spans
-- two), so such a term is a single token whose posting list is the answer. Two columns, the title
-- forms and the model numbers (game and editions); detail=column keeps them apart without storing
-- positions, and contentless rows store no text.
-- char_positions holds the numbers 1 to 8192, the positions the views walk to cut a text up.
INSERT INTO char_positions (n)
  WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 8192)
  SELECT n FROM counter;
--> statement-breakpoint
-- Each game's searchable texts, forms joined by "|": column 0 the title forms, 1 the model numbers.
CREATE VIEW `game_texts` AS
  SELECT id, 0 AS col, search_title || '|' || search_title_en || '|' || search_alias AS text FROM games
  UNION ALL
  SELECT id, 1 AS col, search_model || '|' || search_edition_model AS text FROM games;
--> statement-breakpoint
-- The grams of any text: its characters, then its adjacent pairs, "|" never part of one.
CREATE VIEW `game_text_grams` AS
  SELECT t.id, t.col,
    ifnull((SELECT group_concat(substr(t.text, p.n, 1), ' ' ORDER BY p.n)
            FROM char_positions p WHERE p.n <= length(t.text) AND substr(t.text, p.n, 1) <> '|'), '')
    || ' ' ||
    ifnull((SELECT group_concat(substr(t.text, p.n, 2), ' ' ORDER BY p.n)
            FROM char_positions p WHERE p.n < length(t.text) AND instr(substr(t.text, p.n, 2), '|') = 0), '') AS grams
  FROM game_texts t;
--> statement-breakpoint
CREATE VIEW `game_grams_rows` AS
  SELECT g.id,
    (SELECT grams FROM game_text_grams WHERE id = g.id AND col = 0) AS titles,
    (SELECT grams FROM game_text_grams WHERE id = g.id AND col = 1) AS codes
  FROM games g;
--> statement-breakpoint
CREATE VIRTUAL TABLE `games_grams` USING fts5(
  titles, codes, content='', contentless_delete=1, detail=column, tokenize='unicode61 remove_diacritics 0'
);
--> statement-breakpoint
CREATE TRIGGER `games_grams_ai` AFTER INSERT ON `games` BEGIN
  INSERT INTO games_grams (rowid, titles, codes) SELECT id, titles, codes FROM game_grams_rows WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `games_grams_au` AFTER UPDATE OF search_title, search_title_en, search_alias, search_model, search_edition_model ON `games` BEGIN
  DELETE FROM games_grams WHERE rowid = old.id;
  INSERT INTO games_grams (rowid, titles, codes) SELECT id, titles, codes FROM game_grams_rows WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `games_grams_ad` AFTER DELETE ON `games` BEGIN
  DELETE FROM games_grams WHERE rowid = old.id;
END;
--> statement-breakpoint
-- List rows' copies of their game's sort_key and release_date (game_sort_key, game_release_date), so
-- that the title and release date sorts of a library, wishlist or play records list have an index
-- that starts with the user instead of joining and sorting every row of the list. Set when a row is
-- inserted, and again whenever the game's change, whoever writes it.
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
-- play_records.total_play_time: the sum of the record's play logs' play_time, so that the total play
-- time sort has an index too.
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
