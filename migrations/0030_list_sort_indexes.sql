-- The list tools read a page in the order of an index that starts with the user (issue 15): for
-- each sort of a list's own columns, in each direction, an index whose terms are exactly the
-- ORDER BY the tools write (`x IS NULL, x <direction>, <tie-break>`: empty values last either
-- way, ties by id ascending). The page's rows are then read in index order and the read stops at
-- the page, and the total is counted from the index, whatever the list's size. Sorts by a game's
-- columns (title, releaseDate) and by totalPlayTime are not columns of the list and cannot be
-- indexed on it; they sort the list's rows (keys only, see userListPage).
-- Play records list their latest cycles only: partial indexes over is_latest = 1.
-- IF NOT EXISTS: written by hand (drizzle-kit's snapshot of these indexes comes with the next
-- generated migration), so a migration generated later that repeats them cannot break a database.
CREATE INDEX IF NOT EXISTS `library_user_updated_desc_idx` ON `library_entries` (`user_id`,("updated_at" IS NULL),"updated_at" desc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `library_user_updated_asc_idx` ON `library_entries` (`user_id`,("updated_at" IS NULL),"updated_at" asc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `library_user_buy_date_desc_idx` ON `library_entries` (`user_id`,("buy_date" IS NULL),"buy_date" desc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `library_user_buy_date_asc_idx` ON `library_entries` (`user_id`,("buy_date" IS NULL),"buy_date" asc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `library_user_buy_price_desc_idx` ON `library_entries` (`user_id`,("buy_price" IS NULL),"buy_price" desc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `library_user_buy_price_asc_idx` ON `library_entries` (`user_id`,("buy_price" IS NULL),"buy_price" asc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `library_user_rating_desc_idx` ON `library_entries` (`user_id`,("rating" IS NULL),"rating" desc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `library_user_rating_asc_idx` ON `library_entries` (`user_id`,("rating" IS NULL),"rating" asc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `wishlist_user_priority_desc_idx` ON `wishlist_entries` (`user_id`,("priority" IS NULL),"priority" desc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `wishlist_user_priority_asc_idx` ON `wishlist_entries` (`user_id`,("priority" IS NULL),"priority" asc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `wishlist_user_created_desc_idx` ON `wishlist_entries` (`user_id`,("created_at" IS NULL),"created_at" desc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `wishlist_user_created_asc_idx` ON `wishlist_entries` (`user_id`,("created_at" IS NULL),"created_at" asc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `wishlist_user_wish_date_desc_idx` ON `wishlist_entries` (`user_id`,("wish_date" IS NULL),"wish_date" desc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `wishlist_user_wish_date_asc_idx` ON `wishlist_entries` (`user_id`,("wish_date" IS NULL),"wish_date" asc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `wishlist_user_wish_price_desc_idx` ON `wishlist_entries` (`user_id`,("wish_price" IS NULL),"wish_price" desc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `wishlist_user_wish_price_asc_idx` ON `wishlist_entries` (`user_id`,("wish_price" IS NULL),"wish_price" asc,`game_id`);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `play_records_latest_updated_desc_idx` ON `play_records` (`user_id`,("updated_at" IS NULL),"updated_at" desc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `play_records_latest_updated_asc_idx` ON `play_records` (`user_id`,("updated_at" IS NULL),"updated_at" asc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `play_records_latest_play_start_date_desc_idx` ON `play_records` (`user_id`,("play_start_date" IS NULL),"play_start_date" desc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `play_records_latest_play_start_date_asc_idx` ON `play_records` (`user_id`,("play_start_date" IS NULL),"play_start_date" asc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `play_records_latest_play_end_date_desc_idx` ON `play_records` (`user_id`,("play_end_date" IS NULL),"play_end_date" desc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `play_records_latest_play_end_date_asc_idx` ON `play_records` (`user_id`,("play_end_date" IS NULL),"play_end_date" asc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `play_records_latest_clear_target_date_desc_idx` ON `play_records` (`user_id`,("clear_target_date" IS NULL),"clear_target_date" desc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `play_records_latest_clear_target_date_asc_idx` ON `play_records` (`user_id`,("clear_target_date" IS NULL),"clear_target_date" asc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `play_records_latest_rating_desc_idx` ON `play_records` (`user_id`,("rating" IS NULL),"rating" desc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `play_records_latest_rating_asc_idx` ON `play_records` (`user_id`,("rating" IS NULL),"rating" asc,`game_id`) WHERE "is_latest" = 1;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `consoles_user_rating_desc_idx` ON `consoles` (`user_id`,("rating" IS NULL),"rating" desc,`id`);
