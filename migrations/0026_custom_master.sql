-- Custom platforms and publishers (PREMIUM): a name is unique among one user's own records, and the
-- index (owner first) finds a user's records for the per-plan count and the lists. Official rows
-- have owner_user_id NULL, which a unique index never compares, so master data is unaffected.
CREATE UNIQUE INDEX `companies_owner_name_idx` ON `companies` (`owner_user_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `platforms_owner_name_idx` ON `platforms` (`owner_user_id`,`name`);
