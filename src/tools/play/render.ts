import type { Db } from "../../platform/db";
import { attributeLabels } from "../attributes/queries";
import { PLAY_FIELD_GROUPS, toPlayRecord } from "./record";
import { findPlay } from "./queries";

/** A stored play record as a write result: every field group. */
export async function renderPlay(db: Db, userId: string, playId: string) {
  const [row, labels] = await Promise.all([findPlay(db, userId, playId), attributeLabels(db, userId)]);
  return toPlayRecord(row!, new Set(PLAY_FIELD_GROUPS), labels);
}
