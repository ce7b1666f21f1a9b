-- One trigram FTS row per game over its normalised search columns: substring matches of 3+
-- characters in any script, returning game ids directly. External content: games stays the
-- source of truth and these triggers keep the index in step with it.
CREATE VIRTUAL TABLE `games_fts` USING fts5(
  search_title, search_title_en, search_alias, search_jan, search_edition_jan, search_model, search_edition_model,
  content='games', content_rowid='id', tokenize='trigram'
);
--> statement-breakpoint
-- Index the rows that exist already; the triggers' deletes must find what they remove.
INSERT INTO games_fts(games_fts) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `games_fts_ai` AFTER INSERT ON `games` BEGIN
  INSERT INTO games_fts(rowid, search_title, search_title_en, search_alias, search_jan, search_edition_jan, search_model, search_edition_model)
  VALUES (new.id, new.search_title, new.search_title_en, new.search_alias, new.search_jan, new.search_edition_jan, new.search_model, new.search_edition_model);
END;
--> statement-breakpoint
CREATE TRIGGER `games_fts_ad` AFTER DELETE ON `games` BEGIN
  INSERT INTO games_fts(games_fts, rowid, search_title, search_title_en, search_alias, search_jan, search_edition_jan, search_model, search_edition_model)
  VALUES ('delete', old.id, old.search_title, old.search_title_en, old.search_alias, old.search_jan, old.search_edition_jan, old.search_model, old.search_edition_model);
END;
--> statement-breakpoint
CREATE TRIGGER `games_fts_au` AFTER UPDATE OF search_title, search_title_en, search_alias, search_jan, search_edition_jan, search_model, search_edition_model ON `games` BEGIN
  INSERT INTO games_fts(games_fts, rowid, search_title, search_title_en, search_alias, search_jan, search_edition_jan, search_model, search_edition_model)
  VALUES ('delete', old.id, old.search_title, old.search_title_en, old.search_alias, old.search_jan, old.search_edition_jan, old.search_model, old.search_edition_model);
  INSERT INTO games_fts(rowid, search_title, search_title_en, search_alias, search_jan, search_edition_jan, search_model, search_edition_model)
  VALUES (new.id, new.search_title, new.search_title_en, new.search_alias, new.search_jan, new.search_edition_jan, new.search_model, new.search_edition_model);
END;
--> statement-breakpoint
-- Games stored before this migration have empty search columns: forget their content hashes so
-- that the next import (idempotent) writes them again with their search forms.
UPDATE `games` SET `content_hash` = '';
