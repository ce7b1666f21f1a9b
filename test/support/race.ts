// Races that land: two calls fired together, the second one started a few D1 round trips after the
// first. Sweeping that head start over the rounds of a test moves the second call's steps across
// every point of the first one's, so a window between a check and a write is hit on some round.
import { env } from "cloudflare:workers";

/** Waits for `steps` real D1 round trips: the calls already running take that many steps meanwhile. */
async function afterSteps(steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) await env.DB.prepare("SELECT 1").first();
}

/** Fires `first`, then `second` once `headStart` D1 round trips have passed, and waits for both. */
export function race<A, B>(first: () => Promise<A>, second: () => Promise<B>, headStart: number): Promise<[A, B]> {
  return Promise.all([first(), afterSteps(headStart).then(second)]);
}

/** The head start of each round: 0 to 7, over and over. */
export const headStartOf = (round: number) => round % 8;

/**
 * Rounds of a race: two sweeps of the head start. With the in-batch guard of the write removed, each
 * race tried failed in every run (3 of 3), at the same head starts each time (most at one or two of
 * the eight): one sweep finds the window, the second is margin. A test alternating two writes
 * sweeps each of them (`headStartOf(round >> 1)` over `2 * RACE_ROUNDS`).
 */
export const RACE_ROUNDS = 16;
