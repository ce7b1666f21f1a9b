-- JAN searches use plain indexes since 0019, so the trigram index no longer holds JAN codes (13-digit
-- codes share trigrams like "000" with most others, which made its posting lists long). Rebuilt
-- over the columns it still serves: title forms and model numbers.
DROP TRIGGER `games_fts_ai`;
--> statement-breakpoint
DROP TRIGGER `games_fts_ad`;
--> statement-breakpoint
DROP TRIGGER `games_fts_au`;
--> statement-breakpoint
DROP TABLE `games_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `games_fts` USING fts5(
  search_title, search_title_en, search_alias, search_model, search_edition_model,
  content='games', content_rowid='id', tokenize='trigram'
);
--> statement-breakpoint
INSERT INTO games_fts(games_fts) VALUES ('rebuild');
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
