// The oracle of collection summaries: every collection's games and achievement recounted from the
// rows by the spec's rules, written apart from both the triggers' view and the page's SQL, for the
// tests that hold the stored summaries to it.
import { env } from "cloudflare:workers";

const rows = async <T>(query: string, ...values: unknown[]) =>
  (
    await env.DB.prepare(query)
      .bind(...values)
      .all<T>()
  ).results;

interface CollectionRecord {
  id: string;
  type: string;
  purpose: string;
  tag_id: number | null;
  platform_id: number | null;
  genre_id: number | null;
  release_date_from: string | null;
  release_date_to: string | null;
}

/**
 * Every collection's games and achievement, recounted from the rows by the spec's rules (the
 * oracle, written apart from both the triggers' view and the page's SQL): INDIVIDUAL its members;
 * TAG the games carrying its tag; PLATFORM the games of its platform its owner can see, within its
 * genre (a root genre: the game's main or support genre is it; another: is it or beneath it) and
 * release dates; TAG and PLATFORM less their exclusions. Achieved: LIBRARY in the library, PLAY a
 * latest play record COMPLETED.
 */
export async function recountCollections(userId: string) {
  const [collections, games, genres, listed, tagged, library, completed] = await Promise.all([
    rows<CollectionRecord>(
      "SELECT id, type, purpose, tag_id, platform_id, genre_id, release_date_from, release_date_to FROM collections WHERE user_id = ?1",
      userId,
    ),
    rows<{ id: number; platform_id: number; genre_id: number | null; genre_sub_id: number | null; release_date: string | null }>(
      "SELECT id, platform_id, genre_id, genre_sub_id, release_date FROM games WHERE owner_user_id IS NULL OR owner_user_id = ?1",
      userId,
    ),
    rows<{ id: number; parent_id: number | null; taxonomy_key: string }>("SELECT id, parent_id, taxonomy_key FROM genres"),
    rows<{ collection_id: string; game_id: number; kind: string }>(
      "SELECT cg.collection_id, cg.game_id, cg.kind FROM collection_games cg JOIN collections c ON c.id = cg.collection_id WHERE c.user_id = ?1",
      userId,
    ),
    rows<{ tag_id: number; game_id: number }>(
      "SELECT tag_id, game_id FROM tag_games WHERE tag_id IN (SELECT id FROM tags WHERE user_id = ?1)",
      userId,
    ),
    rows<{ game_id: number }>("SELECT game_id FROM library_entries WHERE user_id = ?1", userId),
    rows<{ game_id: number }>("SELECT game_id FROM play_records WHERE user_id = ?1 AND is_latest = 1 AND status = 'COMPLETED'", userId),
  ]);
  const genreOf = new Map(genres.map((genre) => [genre.id, genre]));
  const owned = new Set(library.map((row) => row.game_id));
  const done = new Set(completed.map((row) => row.game_id));
  const inGenre = (chosenId: number | null, game: (typeof games)[number]) => {
    if (chosenId === null) return true;
    const chosen = genreOf.get(chosenId);
    if (!chosen) return false;
    return [game.genre_id, game.genre_sub_id].some((id) => {
      if (id === null) return false;
      if (id === chosen.id) return true;
      const key = genreOf.get(id)?.taxonomy_key;
      return chosen.parent_id !== null && key?.startsWith(`${chosen.taxonomy_key}.`) === true;
    });
  };
  return new Map(
    collections.map((c) => {
      const of = (kind: string) => listed.filter((m) => m.collection_id === c.id && m.kind === kind).map((m) => m.game_id);
      const excluded = new Set(of("excluded"));
      const base =
        c.type === "INDIVIDUAL"
          ? of("member")
          : c.type === "TAG"
            ? tagged.filter((t) => t.tag_id === c.tag_id).map((t) => t.game_id)
            : games
                .filter(
                  (g) =>
                    g.platform_id === c.platform_id &&
                    inGenre(c.genre_id, g) &&
                    (c.release_date_from === null || (g.release_date !== null && g.release_date >= c.release_date_from)) &&
                    (c.release_date_to === null || (g.release_date !== null && g.release_date <= c.release_date_to)),
                )
                .map((g) => g.id);
      const kept = c.type === "INDIVIDUAL" ? base : base.filter((id) => !excluded.has(id));
      const achieved = kept.filter((id) => (c.purpose === "LIBRARY" ? owned : done).has(id));
      return [c.id, { totalGames: kept.length, achievedGames: achieved.length }] as const;
    }),
  );
}
