import { notFound } from "../../platform/errors";
import { PREMIUM_ONLY } from "../../platform/plans";
import { positiveId, REVISION_NOTE, UPDATE_NOTE } from "../../platform/schemas";
import { givenFields, patchInput } from "../../platform/updates";
import { defineTool } from "../../registry/defineTool";
import { customGameFields, customGameResult, customRevision } from "./items";
import {
  checkCustomGameReferences,
  customGameConflict,
  findCustomGame,
  renderCustomGame,
  updateCustomGame as storeUpdate,
} from "./queries";

export const updateCustomGame = defineTool({
  name: "updateCustomGame",
  family: "customGames",
  title: "カスタムゲーム更新",
  description: "Changes one of your custom games.",
  restNote: "In REST, POST /rest/v1/updateCustomGame with gameId and the fields to change.",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  idempotent: true,
  input: patchInput("gameId", positiveId, customGameFields, "addCustomGame"),
  output: customGameResult,
  conflicts: ["revision_conflict"],
  notes: [UPDATE_NOTE, REVISION_NOTE],
  async handler({ db, auth }, { gameId, revision, ...changes }) {
    const current = await findCustomGame(db, auth.userId, gameId);
    if (!current) throw notFound(`Your custom game ${gameId}`);
    if (revision !== undefined && revision !== (await customRevision(current))) throw customGameConflict();
    const defined = givenFields(changes);
    await checkCustomGameReferences(db, auth.userId, defined);
    const next = await storeUpdate(db, auth.userId, gameId, current, defined);
    return { item: await renderCustomGame(db, auth.userId, gameId), revision: next };
  },
});
