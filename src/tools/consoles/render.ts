import type { Db } from "../../platform/db";
import { type ConsoleFieldGroup, toConsoleItem } from "./console";
import { findConsole, platformsOf } from "./queries";

/** A stored console as a tool result, with the given field groups. */
export async function renderConsole(db: Db, userId: string, consoleId: string, groups: readonly ConsoleFieldGroup[]) {
  const [row, platforms] = await Promise.all([findConsole(db, userId, consoleId), platformsOf(db, [consoleId])]);
  return toConsoleItem(row!, new Set(groups), platforms.get(consoleId));
}
