-- Search forms now keep the long-vowel mark after kana (スーパー is すーぱー, no longer すぱ), so words
-- stay long enough for the trigram index. Forget content hashes: the next import rewrites every
-- official game with its new forms. Custom games take theirs on their next update.
UPDATE `games` SET `content_hash` = '' WHERE `owner_user_id` IS NULL;
