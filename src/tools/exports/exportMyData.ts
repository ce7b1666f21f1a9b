import { z } from "zod";
import { ALL_PLANS } from "../../platform/plans";
import { EXPORT_LINK_TTL_SEC, issueExportLink } from "../../platform/signedLinks";
import { defineTool } from "../../registry/defineTool";
import { MY_DATA_FORMATS, MY_DATA_PLAN_DIFFERENCES, MY_DATASETS, myDataInput } from "./myData/args";
import { prepareMyData } from "./myData/index";

const NOTE =
  "The URL is valid for 15 minutes and anyone holding it can download the file: do not share it. " +
  "Downloading consumes usage quota, given back if the file could not be served. " +
  "Empty values are null (an empty cell in CSV). In CSV a list of plain values is joined with ' | ' (a | or \\ inside an item is escaped with a backslash), " +
  "other lists and objects are JSON text, and text starting with =, +, -, @, a tab or a CR gets a leading ' so that spreadsheets show it instead of running it " +
  "(importMyData reads the file back exactly).";

export const exportMyData = defineTool({
  name: "exportMyData",
  family: "exports",
  title: "マイデータのエクスポート",
  description:
    "Issues a download URL for one of your datasets as a JSON or CSV file (a backup): library, wishlist, playRecords (latest record per game; " +
    "includeHistory for every cycle, PREMIUM), playLogs, tags and consoles (LIGHT and above), collections and customGames (PREMIUM). " +
    "It takes the filters and sorts of the matching list tool; a filter that does not apply to the dataset is refused. " +
    "The answer is the URL, its columns and row count, never the rows. Physical copy details are not included.",
  restNote: "REST only: POST /rest/v1/exportMyData, then GET the returned url within 15 minutes.",
  scopes: ["library:read", "play:read", "games:read"],
  plans: ALL_PLANS,
  // An export changes nothing, but it is POST only: a write that can be repeated at will.
  kind: "write",
  destructive: false,
  idempotent: true,
  restOnly: true,
  input: myDataInput,
  output: z.object({
    url: z.url().describe("Absolute download URL, valid for expiresInSec seconds."),
    expiresInSec: z.literal(EXPORT_LINK_TTL_SEC),
    expiresAt: z.string(),
    columns: z.array(z.string()).describe("The file's columns, in order."),
    note: z.string(),
    dataset: z.enum(MY_DATASETS),
    format: z.enum(MY_DATA_FORMATS),
    rowCount: z.number().int().describe("Rows matching the filters now; the file is produced at download, with the filters reapplied."),
  }),
  planDifferences: MY_DATA_PLAN_DIFFERENCES,
  notes: [
    "Datasets per plan: library, wishlist, playRecords, playLogs on every plan; tags and consoles on LIGHT and above; collections and customGames on PREMIUM (403 plan_required naming dataset).",
    "format defaults to json. csv is UTF-8 with a byte order mark and a header row of the columns.",
    "Filters per dataset: library as getLibrary; wishlist as getWishlist; playRecords as getPlayRecords plus includeHistory; playLogs takes the play record filters (the sessions of the matching records); consoles as getConsoles; collections name, purposeTypes, collectionTypes; customGames the game filters; tags none. Any other argument is a 400 naming it.",
    "sortBy takes the values of the matching list tool (default: its default order); tags, collections, playLogs and customGames have one fixed order and take no sortBy or sortOrder.",
    "Filters are stored in the link and reapplied at download, against the plan held then.",
  ],
  async handler({ env, db, auth, now, origin, upgradeUrl }, args) {
    const { dataset, format, ...filters } = args;
    const source = await prepareMyData({ db, userId: auth.userId, plan: auth.plan, now }, dataset, filters, upgradeUrl);
    const [link, rowCount] = await Promise.all([
      issueExportLink({ env, now, origin, userId: auth.userId }, { kind: "myData", dataset, format, args: filters }),
      source.rowCount(),
    ]);
    return { ...link, columns: [...source.columns], note: NOTE, dataset, format, rowCount };
  },
});
