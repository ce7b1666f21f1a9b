-- Terms shorter than three characters cannot use the trigram index and must scan. Scanning the
-- wide games rows costs ten times what scanning this narrow copy of their text forms does; the
-- triggers keep it in step with games, so no application code writes it.
CREATE TABLE `games_text` (`id` integer PRIMARY KEY NOT NULL, `text` text NOT NULL);
--> statement-breakpoint
INSERT INTO games_text (id, text) SELECT id, search_title || '|' || search_title_en || '|' || search_alias FROM games;
--> statement-breakpoint
CREATE TRIGGER `games_text_ai` AFTER INSERT ON `games` BEGIN
  INSERT INTO games_text (id, text) VALUES (new.id, new.search_title || '|' || new.search_title_en || '|' || new.search_alias);
END;
--> statement-breakpoint
CREATE TRIGGER `games_text_ad` AFTER DELETE ON `games` BEGIN
  DELETE FROM games_text WHERE id = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `games_text_au` AFTER UPDATE OF search_title, search_title_en, search_alias ON `games` BEGIN
  UPDATE games_text SET text = new.search_title || '|' || new.search_title_en || '|' || new.search_alias WHERE id = new.id;
END;
