ALTER TABLE `library_entries` ADD `buy_place_key` text;--> statement-breakpoint
ALTER TABLE `wishlist_entries` ADD `wish_place_key` text;--> statement-breakpoint
-- Rows stored before the keys existed: lower() is ASCII-only, close enough until they are next written.
UPDATE `library_entries` SET `buy_place_key` = lower(`buy_place`);
--> statement-breakpoint
UPDATE `wishlist_entries` SET `wish_place_key` = lower(`wish_place`);
