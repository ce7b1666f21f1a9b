import type { Db } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { readBack } from "../../platform/writes";
import { type ConsoleFieldGroup, toConsoleItem } from "./console";
import { findConsole, platformsOf } from "./queries";

/** A stored console as a tool result, with the given field groups (404 when a removal took it meanwhile). */
export async function renderConsole(db: Db, userId: string, consoleId: string, groups: readonly ConsoleFieldGroup[]) {
  const [row, platforms] = await Promise.all([findConsole(db, userId, consoleId), platformsOf(db, [consoleId])]);
  return toConsoleItem(
    readBack(row, () => notFound(`Your console ${consoleId}`)),
    new Set(groups),
    platforms.get(consoleId),
  );
}
