-- Per-call accounting moved to a Durable Object per user (src/platform/userAccounting.ts): the
-- daily counts and the keys' burst windows are no longer written to D1. burst_counters keeps only
-- the failed-attempt counters (platform/failedAttempts.ts), whose names never start with `key_`.
-- Today's counts are not carried over: each user's object starts the day at zero.
DROP TABLE `usage_daily`;--> statement-breakpoint
DELETE FROM `burst_counters` WHERE `key_id` LIKE 'key\_%' ESCAPE '\';
