-- Search moves from one row per term (game_terms) to normalised columns on games with one FTS
-- row per game: no per-term join or GROUP BY on large hit sets. The old index goes first, as
-- drizzle cannot see it.
DROP TRIGGER IF EXISTS `game_terms_ai`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `game_terms_ad`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `game_terms_au`;
--> statement-breakpoint
DROP TABLE IF EXISTS `game_terms_fts`;
