-- Model-number fragments of one or two characters scanned every game's codes. games_grams now has
-- two columns, the title forms and the model numbers (game and editions), each holding every
-- character and adjacent pair of its forms as tokens; detail=column keeps the columns apart
-- without storing positions. One view computes the grams of any text, so both columns share it.
DROP TRIGGER `games_grams_ai`;
--> statement-breakpoint
DROP TRIGGER `games_grams_au`;
--> statement-breakpoint
DROP TRIGGER `games_grams_ad`;
--> statement-breakpoint
DROP TABLE `games_grams`;
--> statement-breakpoint
DROP VIEW `game_grams_rows`;
--> statement-breakpoint
DROP VIEW `game_title_text`;
--> statement-breakpoint
-- Each game's searchable texts, forms joined by "|": column 0 the title forms, 1 the model numbers.
CREATE VIEW `game_texts` AS
  SELECT id, 0 AS col, search_title || '|' || search_title_en || '|' || search_alias AS text FROM games
  UNION ALL
  SELECT id, 1 AS col, search_model || '|' || search_edition_model AS text FROM games;
--> statement-breakpoint
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
INSERT INTO games_grams (rowid, titles, codes) SELECT id, titles, codes FROM game_grams_rows;
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
