import type { Db } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { readBack } from "../../platform/writes";
import { attributeLabels } from "../attributes/queries";
import { findPlay } from "./queries";
import { PLAY_FIELD_GROUPS, toPlayRecord } from "./record";

/** A stored play record as a write result: every field group; `gone()` when a removal took it meanwhile. */
export async function renderPlay(db: Db, userId: string, playId: string, gone = () => notFound(`Your play record ${playId}`)) {
  const [row, labels] = await Promise.all([findPlay(db, userId, playId), attributeLabels(db, userId)]);
  return toPlayRecord(readBack(row, gone), new Set(PLAY_FIELD_GROUPS), labels);
}
