-- Short terms are found by token instead of by phrase: games_grams holds every character and every
-- pair of adjacent characters of each title form as its own token (no pair spans two forms), so a
-- term of one or two characters is a single token whose posting list is the answer. Without
-- positions (detail=none) the index is also smaller than games_chars, which it replaces.
DROP TRIGGER `games_chars_ai`;
--> statement-breakpoint
DROP TRIGGER `games_chars_au`;
--> statement-breakpoint
DROP TRIGGER `games_chars_ad`;
--> statement-breakpoint
DROP VIEW `game_chars_rows`;
--> statement-breakpoint
DROP TABLE `games_chars`;
--> statement-breakpoint
CREATE VIEW `game_grams_rows` AS
  SELECT t.id,
    ifnull((SELECT group_concat(substr(t.text, p.n, 1), ' ' ORDER BY p.n)
            FROM char_positions p WHERE p.n <= length(t.text) AND substr(t.text, p.n, 1) <> '|'), '')
    || ' ' ||
    ifnull((SELECT group_concat(substr(t.text, p.n, 2), ' ' ORDER BY p.n)
            FROM char_positions p WHERE p.n < length(t.text) AND instr(substr(t.text, p.n, 2), '|') = 0), '') AS grams
  FROM game_title_text t;
--> statement-breakpoint
CREATE VIRTUAL TABLE `games_grams` USING fts5(
  grams, content='', contentless_delete=1, detail=none, tokenize='unicode61 remove_diacritics 0'
);
--> statement-breakpoint
INSERT INTO games_grams (rowid, grams) SELECT id, grams FROM game_grams_rows;
--> statement-breakpoint
CREATE TRIGGER `games_grams_ai` AFTER INSERT ON `games` BEGIN
  INSERT INTO games_grams (rowid, grams) SELECT id, grams FROM game_grams_rows WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `games_grams_au` AFTER UPDATE OF search_title, search_title_en, search_alias ON `games` BEGIN
  DELETE FROM games_grams WHERE rowid = old.id;
  INSERT INTO games_grams (rowid, grams) SELECT id, grams FROM game_grams_rows WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `games_grams_ad` AFTER DELETE ON `games` BEGIN
  DELETE FROM games_grams WHERE rowid = old.id;
END;
