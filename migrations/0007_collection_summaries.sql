-- Each collection's achievement summary (total and achieved games), kept by the writes that change
-- it, so getCollectionGames and getCollections read one row instead of every member. The table and
-- the indexes are generated from schema.ts; the views, the backfill and the triggers below are
-- written by hand (drizzle-kit cannot write triggers).
--
-- collection_game_states is the one definition the triggers use of a collection's games (as
-- src/tools/collections/collectionGames.ts reads them for a page): an INDIVIDUAL collection's
-- members, the games carrying a TAG collection's tag, the games of a PLATFORM collection's platform
-- its owner can see within its genre and release dates; `excluded` marks a TAG or PLATFORM game the
-- collection leaves out, `achieved` whether the owner achieved it (LIBRARY: in the library; PLAY:
-- a latest play record of it is COMPLETED). A collection holds a game at most once.
--
-- Every write is one of three shapes, each exact on its own, so any sequence of them (in one
-- statement, a batch, or racing batches, which SQLite runs one at a time) keeps the summary equal
-- to a recount:
-- - a delete or an update takes the changed row's game out of the collections it can count in
--   (BEFORE, as it counted) and adds it back (AFTER, as it counts now);
-- - an insert adds what it changes, knowing what the row's key held before (nothing: the keys are
--   unique; a play record counts only when no other latest record of the game was COMPLETED; an
--   exclusion takes out what its game counted); inserts have no BEFORE trigger, which would also
--   fire for a row INSERT OR IGNORE then leaves out;
-- - a collection's own definition, or a genre (rare: master imports), recounts the collections it
--   changes whole.
CREATE TABLE `collection_summaries` (
	`collection_id` text PRIMARY KEY NOT NULL,
	`total_games` integer NOT NULL,
	`achieved_games` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `collections_platform_idx` ON `collections` (`platform_id`) WHERE "collections"."type" = 'PLATFORM';--> statement-breakpoint
CREATE INDEX `collections_tag_idx` ON `collections` (`tag_id`) WHERE "collections"."type" = 'TAG';--> statement-breakpoint
CREATE VIEW `collection_game_states` AS
SELECT k.`collection_id`, k.`game_id`, k.`excluded`,
  CASE k.`purpose` WHEN 'LIBRARY'
    THEN EXISTS (SELECT 1 FROM `library_entries` l WHERE l.`user_id` = k.`user_id` AND l.`game_id` = k.`game_id`)
    ELSE EXISTS (SELECT 1 FROM `play_records` p WHERE p.`user_id` = k.`user_id` AND p.`game_id` = k.`game_id` AND p.`is_latest` = 1 AND p.`status` = 'COMPLETED') END AS `achieved`
FROM (
  SELECT c.`id` AS `collection_id`, c.`user_id` AS `user_id`, c.`purpose` AS `purpose`, m.`game_id` AS `game_id`, 0 AS `excluded`
    FROM `collections` c JOIN `collection_games` m ON m.`collection_id` = c.`id` AND m.`kind` = 'member'
    WHERE c.`type` = 'INDIVIDUAL'
  UNION ALL
  SELECT c.`id`, c.`user_id`, c.`purpose`, t.`game_id`,
      EXISTS (SELECT 1 FROM `collection_games` x WHERE x.`collection_id` = c.`id` AND x.`kind` = 'excluded' AND x.`game_id` = t.`game_id`)
    FROM `collections` c JOIN `tag_games` t ON t.`tag_id` = c.`tag_id`
    WHERE c.`type` = 'TAG'
  UNION ALL
  SELECT c.`id`, c.`user_id`, c.`purpose`, g.`id`,
      EXISTS (SELECT 1 FROM `collection_games` x WHERE x.`collection_id` = c.`id` AND x.`kind` = 'excluded' AND x.`game_id` = g.`id`)
    FROM `collections` c JOIN `games` g ON g.`platform_id` = c.`platform_id`
    WHERE c.`type` = 'PLATFORM' AND ifnull(g.`owner_user_id`, c.`user_id`) = c.`user_id`
      AND (c.`genre_id` IS NULL OR EXISTS (SELECT 1 FROM `genres` q, `genres` gg
        WHERE q.`id` = c.`genre_id` AND gg.`id` IN (g.`genre_id`, g.`genre_sub_id`)
          AND (gg.`id` = q.`id` OR (q.`parent_id` IS NOT NULL
            AND substr(gg.`taxonomy_key`, 1, length(q.`taxonomy_key`) + 1) = q.`taxonomy_key` || '.'))))
      AND (c.`release_date_from` IS NULL OR g.`release_date` >= c.`release_date_from`)
      AND (c.`release_date_to` IS NULL OR g.`release_date` <= c.`release_date_to`)
) k;--> statement-breakpoint
INSERT INTO `collection_summaries` (`collection_id`, `total_games`, `achieved_games`)
  SELECT c.`id`, (SELECT COUNT(*) FROM `collection_game_states` s WHERE s.`collection_id` = c.`id` AND s.`excluded` = 0),
    (SELECT COUNT(*) FROM `collection_game_states` s WHERE s.`collection_id` = c.`id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  FROM `collections` c;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_collections_ai` AFTER INSERT ON `collections` BEGIN
  INSERT OR REPLACE INTO `collection_summaries` (`collection_id`, `total_games`, `achieved_games`) VALUES (NEW.`id`, 0, 0);
  UPDATE `collection_summaries` SET (`total_games`, `achieved_games`) = (SELECT COUNT(*), COALESCE(SUM(s.`achieved`), 0)
    FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`excluded` = 0)
  WHERE `collection_id` IN (NEW.`id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_collections_au` AFTER UPDATE OF `user_id`, `type`, `purpose`, `tag_id`, `platform_id`, `genre_id`, `release_date_from`, `release_date_to` ON `collections` WHEN OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`type` IS NOT NEW.`type` OR OLD.`purpose` IS NOT NEW.`purpose` OR OLD.`tag_id` IS NOT NEW.`tag_id` OR OLD.`platform_id` IS NOT NEW.`platform_id` OR OLD.`genre_id` IS NOT NEW.`genre_id` OR OLD.`release_date_from` IS NOT NEW.`release_date_from` OR OLD.`release_date_to` IS NOT NEW.`release_date_to` BEGIN
  UPDATE `collection_summaries` SET (`total_games`, `achieved_games`) = (SELECT COUNT(*), COALESCE(SUM(s.`achieved`), 0)
    FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`excluded` = 0)
  WHERE `collection_id` IN (NEW.`id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_collections_ad` AFTER DELETE ON `collections` BEGIN
  DELETE FROM `collection_summaries` WHERE `collection_id` = OLD.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_collection_games_ai_member` AFTER INSERT ON `collection_games` WHEN NEW.`kind` = 'member' BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `id` = NEW.`collection_id` AND `type` = 'INDIVIDUAL');
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_collection_games_ai_excluded` AFTER INSERT ON `collection_games` WHEN NEW.`kind` = 'excluded' BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id`),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `id` = NEW.`collection_id` AND `type` <> 'INDIVIDUAL');
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_collection_games_bu` BEFORE UPDATE OF `collection_id`, `game_id`, `kind` ON `collection_games` WHEN OLD.`collection_id` IS NOT NEW.`collection_id` OR OLD.`game_id` IS NOT NEW.`game_id` OR OLD.`kind` IS NOT NEW.`kind` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (OLD.`collection_id`);
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (NEW.`collection_id`) AND (OLD.`collection_id` IS NOT NEW.`collection_id` OR OLD.`game_id` IS NOT NEW.`game_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_collection_games_au` AFTER UPDATE OF `collection_id`, `game_id`, `kind` ON `collection_games` WHEN OLD.`collection_id` IS NOT NEW.`collection_id` OR OLD.`game_id` IS NOT NEW.`game_id` OR OLD.`kind` IS NOT NEW.`kind` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (OLD.`collection_id`);
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (NEW.`collection_id`) AND (OLD.`collection_id` IS NOT NEW.`collection_id` OR OLD.`game_id` IS NOT NEW.`game_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_collection_games_bd` BEFORE DELETE ON `collection_games` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (OLD.`collection_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_collection_games_ad` AFTER DELETE ON `collection_games` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (OLD.`collection_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_tag_games_ai` AFTER INSERT ON `tag_games` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'TAG' AND `tag_id` = NEW.`tag_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_tag_games_bu` BEFORE UPDATE OF `tag_id`, `game_id` ON `tag_games` WHEN OLD.`tag_id` IS NOT NEW.`tag_id` OR OLD.`game_id` IS NOT NEW.`game_id` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'TAG' AND `tag_id` = OLD.`tag_id`);
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'TAG' AND `tag_id` = NEW.`tag_id`) AND (OLD.`tag_id` IS NOT NEW.`tag_id` OR OLD.`game_id` IS NOT NEW.`game_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_tag_games_au` AFTER UPDATE OF `tag_id`, `game_id` ON `tag_games` WHEN OLD.`tag_id` IS NOT NEW.`tag_id` OR OLD.`game_id` IS NOT NEW.`game_id` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'TAG' AND `tag_id` = OLD.`tag_id`);
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'TAG' AND `tag_id` = NEW.`tag_id`) AND (OLD.`tag_id` IS NOT NEW.`tag_id` OR OLD.`game_id` IS NOT NEW.`game_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_tag_games_bd` BEFORE DELETE ON `tag_games` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'TAG' AND `tag_id` = OLD.`tag_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_tag_games_ad` AFTER DELETE ON `tag_games` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'TAG' AND `tag_id` = OLD.`tag_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_library_ai` AFTER INSERT ON `library_entries` BEGIN
  UPDATE `collection_summaries` SET `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = NEW.`user_id` AND `purpose` = 'LIBRARY');
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_library_bu` BEFORE UPDATE OF `user_id`, `game_id` ON `library_entries` WHEN OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`game_id` IS NOT NEW.`game_id` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = OLD.`user_id` AND `purpose` = 'LIBRARY');
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = NEW.`user_id` AND `purpose` = 'LIBRARY') AND (OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`game_id` IS NOT NEW.`game_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_library_au` AFTER UPDATE OF `user_id`, `game_id` ON `library_entries` WHEN OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`game_id` IS NOT NEW.`game_id` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = OLD.`user_id` AND `purpose` = 'LIBRARY');
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = NEW.`user_id` AND `purpose` = 'LIBRARY') AND (OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`game_id` IS NOT NEW.`game_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_library_bd` BEFORE DELETE ON `library_entries` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = OLD.`user_id` AND `purpose` = 'LIBRARY');
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_library_ad` AFTER DELETE ON `library_entries` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = OLD.`user_id` AND `purpose` = 'LIBRARY');
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_play_ai` AFTER INSERT ON `play_records` WHEN NEW.`is_latest` = 1 AND NEW.`status` = 'COMPLETED' AND NOT EXISTS (SELECT 1 FROM `play_records` p WHERE p.`user_id` = NEW.`user_id` AND p.`game_id` = NEW.`game_id` AND p.`is_latest` = 1 AND p.`status` = 'COMPLETED' AND p.`id` <> NEW.`id`) BEGIN
  UPDATE `collection_summaries` SET `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = NEW.`user_id` AND `purpose` = 'PLAY');
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_play_bu` BEFORE UPDATE OF `user_id`, `game_id`, `is_latest`, `status` ON `play_records` WHEN OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`game_id` IS NOT NEW.`game_id` OR OLD.`is_latest` IS NOT NEW.`is_latest` OR OLD.`status` IS NOT NEW.`status` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = OLD.`user_id` AND `purpose` = 'PLAY');
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = NEW.`user_id` AND `purpose` = 'PLAY') AND (OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`game_id` IS NOT NEW.`game_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_play_au` AFTER UPDATE OF `user_id`, `game_id`, `is_latest`, `status` ON `play_records` WHEN OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`game_id` IS NOT NEW.`game_id` OR OLD.`is_latest` IS NOT NEW.`is_latest` OR OLD.`status` IS NOT NEW.`status` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = OLD.`user_id` AND `purpose` = 'PLAY');
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = NEW.`user_id` AND `purpose` = 'PLAY') AND (OLD.`user_id` IS NOT NEW.`user_id` OR OLD.`game_id` IS NOT NEW.`game_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_play_bd` BEFORE DELETE ON `play_records` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = OLD.`user_id` AND `purpose` = 'PLAY');
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_play_ad` AFTER DELETE ON `play_records` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`game_id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `user_id` = OLD.`user_id` AND `purpose` = 'PLAY');
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_games_ai` AFTER INSERT ON `games` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'PLATFORM' AND `platform_id` = NEW.`platform_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_games_bu` BEFORE UPDATE OF `id`, `platform_id`, `genre_id`, `genre_sub_id`, `release_date`, `owner_user_id` ON `games` WHEN OLD.`id` IS NOT NEW.`id` OR OLD.`platform_id` IS NOT NEW.`platform_id` OR OLD.`genre_id` IS NOT NEW.`genre_id` OR OLD.`genre_sub_id` IS NOT NEW.`genre_sub_id` OR OLD.`release_date` IS NOT NEW.`release_date` OR OLD.`owner_user_id` IS NOT NEW.`owner_user_id` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'PLATFORM' AND `platform_id` = OLD.`platform_id`);
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'PLATFORM' AND `platform_id` = NEW.`platform_id`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`platform_id` IS NOT NEW.`platform_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_games_au` AFTER UPDATE OF `id`, `platform_id`, `genre_id`, `genre_sub_id`, `release_date`, `owner_user_id` ON `games` WHEN OLD.`id` IS NOT NEW.`id` OR OLD.`platform_id` IS NOT NEW.`platform_id` OR OLD.`genre_id` IS NOT NEW.`genre_id` OR OLD.`genre_sub_id` IS NOT NEW.`genre_sub_id` OR OLD.`release_date` IS NOT NEW.`release_date` OR OLD.`owner_user_id` IS NOT NEW.`owner_user_id` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'PLATFORM' AND `platform_id` = OLD.`platform_id`);
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = NEW.`id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'PLATFORM' AND `platform_id` = NEW.`platform_id`) AND (OLD.`id` IS NOT NEW.`id` OR OLD.`platform_id` IS NOT NEW.`platform_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_games_bd` BEFORE DELETE ON `games` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` - EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'PLATFORM' AND `platform_id` = OLD.`platform_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_games_ad` AFTER DELETE ON `games` BEGIN
  UPDATE `collection_summaries` SET `total_games` = `total_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`id` AND s.`excluded` = 0),
    `achieved_games` = `achieved_games` + EXISTS (SELECT 1 FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`game_id` = OLD.`id` AND s.`excluded` = 0 AND s.`achieved` = 1)
  WHERE `collection_id` IN (SELECT `id` FROM `collections` WHERE `type` = 'PLATFORM' AND `platform_id` = OLD.`platform_id`);
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_genres_ai` AFTER INSERT ON `genres` BEGIN
  UPDATE `collection_summaries` SET (`total_games`, `achieved_games`) = (SELECT COUNT(*), COALESCE(SUM(s.`achieved`), 0)
    FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`excluded` = 0)
  WHERE `collection_id` IN (SELECT c.`id` FROM `collections` c WHERE c.`type` = 'PLATFORM' AND c.`genre_id` IS NOT NULL AND (c.`genre_id` = NEW.`id`
    OR EXISTS (SELECT 1 FROM `genres` q WHERE q.`id` = c.`genre_id` AND substr(NEW.`taxonomy_key`, 1, length(q.`taxonomy_key`) + 1) = q.`taxonomy_key` || '.')));
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_genres_au` AFTER UPDATE OF `id`, `parent_id`, `taxonomy_key` ON `genres` WHEN OLD.`id` IS NOT NEW.`id` OR OLD.`parent_id` IS NOT NEW.`parent_id` OR OLD.`taxonomy_key` IS NOT NEW.`taxonomy_key` BEGIN
  UPDATE `collection_summaries` SET (`total_games`, `achieved_games`) = (SELECT COUNT(*), COALESCE(SUM(s.`achieved`), 0)
    FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`excluded` = 0)
  WHERE `collection_id` IN (SELECT c.`id` FROM `collections` c WHERE c.`type` = 'PLATFORM' AND c.`genre_id` IS NOT NULL AND (c.`genre_id` = OLD.`id`
    OR EXISTS (SELECT 1 FROM `genres` q WHERE q.`id` = c.`genre_id` AND substr(OLD.`taxonomy_key`, 1, length(q.`taxonomy_key`) + 1) = q.`taxonomy_key` || '.')) UNION SELECT c.`id` FROM `collections` c WHERE c.`type` = 'PLATFORM' AND c.`genre_id` IS NOT NULL AND (c.`genre_id` = NEW.`id`
    OR EXISTS (SELECT 1 FROM `genres` q WHERE q.`id` = c.`genre_id` AND substr(NEW.`taxonomy_key`, 1, length(q.`taxonomy_key`) + 1) = q.`taxonomy_key` || '.')));
END;--> statement-breakpoint
CREATE TRIGGER `collection_summaries_genres_ad` AFTER DELETE ON `genres` BEGIN
  UPDATE `collection_summaries` SET (`total_games`, `achieved_games`) = (SELECT COUNT(*), COALESCE(SUM(s.`achieved`), 0)
    FROM `collection_game_states` s WHERE s.`collection_id` = `collection_summaries`.`collection_id` AND s.`excluded` = 0)
  WHERE `collection_id` IN (SELECT c.`id` FROM `collections` c WHERE c.`type` = 'PLATFORM' AND c.`genre_id` IS NOT NULL AND (c.`genre_id` = OLD.`id`
    OR EXISTS (SELECT 1 FROM `genres` q WHERE q.`id` = c.`genre_id` AND substr(OLD.`taxonomy_key`, 1, length(q.`taxonomy_key`) + 1) = q.`taxonomy_key` || '.')));
END;
