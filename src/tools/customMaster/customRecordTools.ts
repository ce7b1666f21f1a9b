import type { SQL } from "drizzle-orm";
import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import type { Db } from "../../platform/db";
import { PREMIUM_ONLY, REGISTERED_LIMITS, type Scope } from "../../platform/plans";
import { counted, quotedNames } from "../../platform/previewText";
import { CUSTOM_ID_NOTE, REVISION_NOTE, UPDATE_NOTE } from "../../platform/schemas";
import { givenFields, patchInput } from "../../platform/updates";
import { defineTool, type ToolKind } from "../../registry/defineTool";
import {
  companyIdArg,
  customItemOf,
  customPlatformFields,
  customPlatformResult,
  customPublisherFields,
  customPublisherResult,
  type Named,
  platformIdArg,
} from "./items";
import {
  type Affected,
  deleteCustomPlatform,
  deleteCustomPublisher,
  findCustom,
  insertCustom,
  type Kind,
  notYours,
  PLATFORM,
  PUBLISHER,
  platformInUse,
  platformUsage,
  publisherGames,
  updateCustom,
} from "./queries";

/** What removing a record does besides, as its preview tells it. */
interface RemovalPreview {
  /** The other records it changes: their ids are part of the confirm token's target revision. */
  affected: Affected[];
  /** The summary's sentence about them ("" when none). */
  effect: string;
}

/** What a confirmed removal works with. */
interface Removal {
  db: Db;
  userId: string;
  id: number;
  name: string;
  now: Date;
  marker: SQL;
}

/** What the add, update and remove tools of one kind of custom record differ in. */
interface CustomRecordKind {
  store: Kind<Named>;
  /** The tools are named addCustom<Name>, updateCustom<Name> and removeCustom<Name>. */
  name: "Platform" | "Publisher";
  /** The record in the Japanese titles. */
  titleNoun: string;
  idArg: z.ZodNumber;
  fields: z.ZodRawShape;
  result: z.ZodObject;
  /** `restNote` ends the add tool's REST note: where the answer puts the new id. */
  add: { description: string; restNote: string };
  remove: {
    description: string;
    note: string;
    /** Throws when the record cannot go. */
    preview(db: Db, userId: string, id: number, name: string): Promise<RemovalPreview>;
    execute(removal: Removal): Promise<void>;
  };
}

export const CUSTOM_PLATFORM: CustomRecordKind = {
  store: PLATFORM,
  name: "Platform",
  titleNoun: "機種",
  idArg: platformIdArg,
  fields: customPlatformFields,
  result: customPlatformResult,
  add: {
    description: "Registers a platform the master data lacks, seen only by you, for your custom games, consoles and collections.",
    restNote: "the new platformId is in item.platformId.",
  },
  remove: {
    description:
      "Removes one of your custom platforms (two-step); consoles stop listing it. One that custom games or PLATFORM collections still use is refused (400 naming platformId).",
    note: "Move or remove those first.",
    async preview(db, userId, platformId, name) {
      const usage = await platformUsage(db, userId, platformId);
      if (usage.games || usage.collections) throw platformInUse(name, platformId, usage);
      const { consoles } = usage;
      const effect = consoles.length
        ? ` ${counted(consoles.length, "console stops", "consoles stop")} listing it: ${quotedNames(consoles.map((c) => c.name))}.`
        : "";
      return { affected: consoles, effect };
    },
    execute: ({ db, userId, id, name, now, marker }) => deleteCustomPlatform(db, userId, id, name, now.toISOString(), marker),
  },
};

export const CUSTOM_PUBLISHER: CustomRecordKind = {
  store: PUBLISHER,
  name: "Publisher",
  titleNoun: "メーカー",
  idArg: companyIdArg,
  fields: customPublisherFields,
  result: customPublisherResult,
  add: {
    description: "Registers a publisher the master data lacks, seen only by you, for your custom games' publisherId.",
    restNote: "the new id is in item.companyId.",
  },
  remove: {
    description: "Removes one of your custom publishers (two-step).",
    note: "Custom games that name it stay, with publisherId null.",
    async preview(db, userId, companyId) {
      const games = await publisherGames(db, userId, companyId);
      const effect = games.length
        ? ` ${counted(games.length, "of your custom games keeps", "of your custom games keep")} existing without a publisher: ${quotedNames(games.map((g) => g.name))}.`
        : "";
      return { affected: games, effect };
    },
    execute: ({ db, userId, id, marker }) => deleteCustomPublisher(db, userId, id, marker),
  },
};

const VERBS = {
  add: { title: "追加", scopes: ["library:write"], kind: "write" },
  update: { title: "更新", scopes: ["library:write"], kind: "write" },
  remove: { title: "削除", scopes: ["library:delete"], kind: "delete" },
} as const satisfies Record<string, { title: string; scopes: readonly Scope[]; kind: ToolKind }>;

/** What the three tools of a kind have in common: their name, family, title, plans, scopes and kind. */
function toolBasics<V extends keyof typeof VERBS>(kind: CustomRecordKind, verb: V) {
  const { title, scopes, kind: toolKind } = VERBS[verb];
  const name = `${verb}Custom${kind.name}`;
  return { name, family: "customMaster", title: `カスタム${kind.titleNoun}${title}`, plans: PREMIUM_ONLY, scopes, kind: toolKind };
}

export function customRecordAddTool(kind: CustomRecordKind) {
  const { counter } = kind.store;
  const basics = toolBasics(kind, "add");
  return defineTool({
    ...basics,
    destructive: false,
    // A repeat is 409 already_exists (names are unique per user).
    idempotent: true,
    description: kind.add.description,
    restNote: `In REST, POST /rest/v1/${basics.name}; ${kind.add.restNote}`,
    nullIsOmission: true,
    input: z.strictObject(kind.fields).partial().required({ name: true }),
    output: kind.result,
    conflicts: ["already_exists"],
    notes: [CUSTOM_ID_NOTE, `At most ${REGISTERED_LIMITS[counter.resource].PREMIUM} per account.`],
    async handler({ db, auth, upgradeUrl }, args: Record<string, unknown>) {
      // Every field is stored; one not given is null.
      const fields = Object.fromEntries(Object.keys(kind.fields).map((key) => [key, args[key] ?? null])) as Named;
      const stored = await insertCustom(db, kind.store, { ...auth, upgradeUrl }, fields);
      return { item: customItemOf(kind.store.idField, stored.id, stored.fields), revision: stored.revision };
    },
  });
}

export function customRecordUpdateTool(kind: CustomRecordKind) {
  const { noun, idField } = kind.store;
  const basics = toolBasics(kind, "update");
  return defineTool({
    ...basics,
    description: `Changes one of your custom ${noun}s.`,
    restNote: `In REST, POST /rest/v1/${basics.name} with ${idField} and the fields to change.`,
    idempotent: true,
    input: patchInput(idField, kind.idArg, kind.fields, `addCustom${kind.name}`),
    output: kind.result,
    conflicts: ["already_exists", "revision_conflict"],
    notes: [UPDATE_NOTE, REVISION_NOTE, `Official ${noun}s and other users' custom ${noun}s are 404 not_found.`],
    async handler({ db, auth }, { [idField]: id, revision, ...changes }: { [field: string]: unknown; revision?: string }) {
      const stored = await updateCustom(db, kind.store, auth.userId, id as number, givenFields(changes), revision);
      return { item: customItemOf(idField, id as number, stored.fields), revision: stored.revision };
    },
  });
}

export function customRecordRemoveTool(kind: CustomRecordKind) {
  const { noun, idField } = kind.store;
  const basics = toolBasics(kind, "remove");
  return defineTool({
    ...basics,
    description: kind.remove.description,
    restNote: `In REST, POST /rest/v1/${basics.name} with {"${idField}": ...}, then again with confirmToken.`,
    input: z.strictObject({ [idField]: kind.idArg, confirmToken: confirmTokenArg }),
    output: removalResult<z.ZodRawShape>({ [idField]: z.number().int() }),
    notes: [TWO_STEP_NOTE, kind.remove.note],
    async handler(ctx, args) {
      const { db, auth, now } = ctx;
      const id = args[idField] as number;
      const record = await findCustom(db, kind.store, auth.userId, id);
      if (!record) throw notYours(kind.store, id);
      const { name } = record.fields;
      const { affected, effect } = await kind.remove.preview(db, auth.userId, id, name);
      return confirmTwoStep(ctx, args, {
        targetRevision: [record.revision, ...affected.map((a) => a.id)].join(":"),
        summary: `Removes your custom ${noun} '${name}'.${effect}`,
        async execute(marker) {
          await kind.remove.execute({ db, userId: auth.userId, id, name, now, marker });
          return { [idField]: id, removed: true as const };
        },
      });
    },
  });
}
