// The layering of src/ (docs/architecture.md, "The layers"), checked by `npm run lint:layers`:
// a file may import from its own layer and the layers below it, never from one above it (a
// back-arrow), and no import cycle, type-only imports included. The few back-arrows the code still
// has are allowed below, one by one, each with its reason. TypeScript is read through @swc/core:
// dependency-cruiser cannot use TypeScript 7's compiler yet (its warning about tsc changes nothing).

/** The layers from the bottom up. Inside src/tools/ each record family is a layer of its own. */
const LAYERS = [
  ["bindings", "^src/bindings\\.ts$"],
  ["db", "^src/db/"],
  ["platform", "^src/(platform/|env\\.ts$)"],
  ["registry", "^src/registry/"],
  ["catalog families", "^src/tools/(games|attributes|identifiers)/"],
  ["shared machinery", "^src/tools/shared/"],
  ["family consoles", "^src/tools/consoles/"],
  ["family tags", "^src/tools/tags/"],
  ["family library", "^src/tools/library/"],
  ["family wishlist", "^src/tools/wishlist/"],
  ["family play", "^src/tools/play/"],
  ["family collections", "^src/tools/collections/"],
  ["family physicalCopies", "^src/tools/physicalCopies/"],
  ["family customGames", "^src/tools/customGames/"],
  ["family customMaster", "^src/tools/customMaster/"],
  ["family registries", "^src/tools/(datasets|planCounters)\\.ts$"],
  ["engines", "^src/tools/(exports|imports|account)/"],
  ["tool registry", "^src/tools/(index|types|bucketCleanup)\\.ts$"],
  ["accounts", "^src/accounts/"],
  ["admin", "^src/admin/"],
  ["faces", "^src/faces/"],
  ["entry", "^src/(app|index)\\.ts$"],
];

/** Back-arrows allowed, each for its reason: [importing file, imported file, reason]. */
const ALLOWED = [
  [
    "^src/tools/library/(dataset|addToLibrary)\\.ts$",
    "^src/tools/wishlist/queries\\.ts$",
    "a game added to the library leaves the wishlist in the same batch (the wishlist's own statement)",
  ],
  [
    "^src/tools/library/removal\\.ts$",
    "^src/tools/play/removal\\.ts$",
    "a library entry's removal cascade takes its play records, by the play family's own cascade",
  ],
  [
    "^src/tools/tags/(dataset|removal|removeTag)\\.ts$",
    "^src/tools/collections/(removal|queries)\\.ts$",
    "a TAG collection follows its tag: removing a tag removes its collections by the collections' own cascade",
  ],
];

const above = (index) => LAYERS.slice(index + 1).map(([, path]) => path);

/** One rule per layer: nothing above it, but for the allowed back-arrows, which get a rule of their own. */
function layerRules() {
  return LAYERS.slice(0, -1).flatMap(([name, path], index) => {
    const allowedHere = ALLOWED.filter(([from]) => from.startsWith(path));
    const rule = (from, toNot, suffix = "") => ({
      name: `no-back-arrow-from-${name.replaceAll(" ", "-")}${suffix}`,
      comment: `${name} imports only from its own layer and the layers below it (docs/architecture.md, "The layers").`,
      severity: "error",
      from,
      to: { path: above(index), ...(toNot ? { pathNot: toNot } : {}) },
    });
    return [
      rule(allowedHere.length > 0 ? { path, pathNot: allowedHere.map(([from]) => from) } : { path }),
      ...allowedHere.map(([from, to], i) => rule({ path: from }, to, `-allowed-${i + 1}`)),
    ];
  });
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycle in src/, type-only imports included.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "no-unlayered-file",
      comment: "Every file of src/ belongs to a layer of .dependency-cruiser.cjs (and of docs/architecture.md).",
      severity: "error",
      from: { path: "^src/", pathNot: LAYERS.map(([, path]) => path) },
      to: {},
    },
    ...layerRules(),
  ],
  options: {
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "\\.json$" },
  },
};
