-- Trigram full-text index over game_terms.term: substring matches of 3+ characters in any
-- script (kana, kanji, latin) without a table scan. External content: game_terms stays the
-- source of truth and these triggers keep the index in step with it.
CREATE VIRTUAL TABLE `game_terms_fts` USING fts5(term, content='game_terms', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `game_terms_ai` AFTER INSERT ON `game_terms` BEGIN
  INSERT INTO game_terms_fts(rowid, term) VALUES (new.id, new.term);
END;
--> statement-breakpoint
CREATE TRIGGER `game_terms_ad` AFTER DELETE ON `game_terms` BEGIN
  INSERT INTO game_terms_fts(game_terms_fts, rowid, term) VALUES ('delete', old.id, old.term);
END;
--> statement-breakpoint
CREATE TRIGGER `game_terms_au` AFTER UPDATE ON `game_terms` BEGIN
  INSERT INTO game_terms_fts(game_terms_fts, rowid, term) VALUES ('delete', old.id, old.term);
  INSERT INTO game_terms_fts(rowid, term) VALUES (new.id, new.term);
END;
