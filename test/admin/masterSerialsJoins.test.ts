import { describe, expect, it } from "vitest";
import { isModelNumber, type SerialDats, serialsByHash } from "../../scripts/lib/gamedatabase/serials";
import { gameCodeOf } from "../../scripts/lib/gamedatabase/serialsByCode";
import {
  boxNumber,
  joinByTitle,
  type RomanisedTitle,
  TITLE_JOIN_SYSTEMS,
  titleKey,
  withoutDiscForms,
} from "../../scripts/lib/gamedatabase/serialsByTitle";
import sampleText from "../fixtures/gamedatabase/serial-joins-sample.tsv?raw";

// --- N64: libretro's serial file names each ROM by another byte order's CRC ------------------

const N64 = "Nintendo - Nintendo 64.dat";
const z64 = (name: string, code: string, md5: string) =>
  `game ( name "${name}" serial "${code}" rom ( name "${name}.z64" size 8 crc 00000000 md5 ${md5} serial "${code}" ) )`;
const entry = (comment: string, serial: string, crc: string) => `game ( comment "${comment}" serial "${serial}" rom ( crc ${crc} ) )`;

const n64NoIntro = [
  z64("Tamagotchi World (Japan)", "NTWJ", "a".repeat(32)),
  z64("Mario Party (Japan)", "CLBJ", "b".repeat(32)),
  z64("Pokemon Stadium (Japan)", "CPSJ", "c".repeat(32)),
  z64("Kirby 64 (Japan) (Rev 1)", "NK4J", "d".repeat(32)),
  z64("GoldenEye 007 (Japan)", "NGEJ", "e".repeat(32)),
  z64("Bomberman (Japan)", "NHAJ", "f".repeat(32)),
].join("\n");
const n64Serial = [
  entry("Tamagotchi World (Japan)", "NUS-NTWJ-JPN", "C6400938"),
  entry("Mario Party (Japan)", "NUS-NLBJ-JPN", "11111111"),
  entry("Pokemon Stadium (Japan)", "NUS-CP2J-JPN", "22222222"),
  entry("Kirby 64 (Japan) (Rev A)", "NUS-NK4J-JPN", "33333333"),
  entry("007 - GoldenEye (Japan)", "NUS-NGEJ-JPN", "44444444"),
  entry("Baku Bomber Man (Japan)", "NUS-NHAJ-JPN", "55555555"),
  entry("Bomber Man 64 (Japan)", "NUS-NHAJ-JPN", "66666666"),
].join("\n");
const n64Index = serialsByHash({ serial: { [N64]: n64Serial }, noIntro: { [N64]: n64NoIntro }, dat: {}, redump: {} } satisfies SerialDats);

describe("model numbers of cartridges whose serial entry names no dump by CRC (N64 byte order)", () => {
  it("reads the game code out of a box number", () => {
    expect(gameCodeOf("NUS-NSMJ-JPN")).toBe("NSMJ");
    expect(gameCodeOf("NUS-NWXJ")).toBe("NWXJ");
    expect(gameCodeOf("T-4305G")).toBeUndefined();
  });

  it("joins by the no-intro name when the box number's code agrees with the dump's header code", () => {
    expect(n64Index.get("a".repeat(32))).toEqual(["NUS-NTWJ-JPN"]);
  });

  it("lets the code's first letter differ (C in the header of a cartridge the 64DD can extend)", () => {
    expect(n64Index.get("b".repeat(32))).toEqual(["NUS-NLBJ-JPN"]);
  });

  it("refuses a name match whose code contradicts the dump (box CP2J, dump CPSJ)", () => {
    expect(n64Index.has("c".repeat(32))).toBe(false);
  });

  it("reads libretro's (Rev A) as no-intro's (Rev 1)", () => {
    expect(n64Index.get("d".repeat(32))).toEqual(["NUS-NK4J-JPN"]);
  });

  it("joins a renamed game by its code when the code belongs to one title on both sides", () => {
    expect(n64Index.get("e".repeat(32))).toEqual(["NUS-NGEJ-JPN"]);
  });

  it("joins nothing by a code that two titles of the serial file share", () => {
    expect(n64Index.has("f".repeat(32))).toBe(false);
  });
});

// --- Discs: by platform and romanised title -------------------------------------------------

const SATURN = "Sega - Saturn.dat";
const disc = (name: string, serial: string) =>
  `game ( name "${name}" region "Japan" serial "${serial}" rom ( name "${name}.bin" size 1 crc 0 ) )`;
const saturnRedump = [
  disc("Ryouri no Tetsujin - Kitchen Stadium Tour (Japan)", "T-21702G"),
  disc("Chou Jikuu Yousai Macross - Ai Oboete Imasu ka (Japan) (Disc 1)", "T-23403G-0"),
  disc("Chou Jikuu Yousai Macross - Ai Oboete Imasu ka (Japan) (Disc 2)", "T-23403G-1"),
  disc("Secret of Monkey Island, The (Japan)", "T-1234G"),
  disc("Horror Tour (Japan)", "T-24301G"),
  disc("Horror Tour (Japan) (Demo)", "T-99999G"),
  disc("Horror Tour (USA)", "T-88888H"),
  disc("Twin Title (Japan)", "T-1G"),
  disc("Twin-Title (Japan)", "T-2G"),
  disc("Same Name (Japan)", "T-3G"),
  disc("Daytona USA - Circuit Edition (Japan)", "GS-9100"),
  disc("Dated (Japan)", "9/28/96"),
  disc("Enemy Zero (Japan) (Disc 1) (Game Disc)", "T-30001G-0"),
  disc("Enemy Zero (Japan) (Disc 1) (Game Disc) (Satakore)", "T-30004G-0"),
  disc("Black-Matrix (Japan) (Satakore)", "T-20118G"),
].join("\n");

const ss = (gameId: number, title: string, gameEditionId: number | null = null, reboxed: string | null = null): RomanisedTitle => ({
  platformKey: "ss",
  gameId,
  gameEditionId,
  title,
  reboxed,
});
const titles: RomanisedTitle[] = [
  ss(1, "Ryōri no Tetsujin: Kitchen Stadium Tour"),
  ss(2, "Chōjikū Yōsai Macross: Ai・Oboete Imasu-ka"),
  ss(3, "The Secret of Monkey Island"),
  ss(4, "Horror Tour"),
  ss(4, "Horror Tour (Satakore)", 40),
  ss(5, "Twin Title"),
  ss(6, "Same Name"),
  ss(7, "Same Name"),
  ss(8, "Daytona USA"),
  ss(8, "Daytona USA: Circuit Edition", 80),
  ss(9, "Dated"),
  ss(11, "Enemy Zero"),
  ss(11, "Enemy Zero", 110, ""),
  ss(11, "Enemy Zero", 111, "satakore"),
  ss(12, "Black/Matrix"),
  ss(12, "Black/Matrix", 120, "satakore"),
  ss(12, "Black/Matrix", 121, "satakore"),
  { platformKey: "pcecd", gameId: 10, gameEditionId: null, title: "Horror Tour", reboxed: null },
];
const joins = joinByTitle({ [SATURN]: saturnRedump }, titles, isModelNumber);
const joinOf = (gameId: number) => joins.filter((join) => join.gameId === gameId);

describe("model numbers of discs by title", () => {
  it("keys titles by letters and digits, long vowels spelt out, を as o, a trailing article first", () => {
    expect(titleKey("Ryōri no Tetsujin: Kitchen Stadium Tour")).toBe(titleKey("Ryouri no Tetsujin - Kitchen Stadium Tour"));
    expect(titleKey("Top wo Nerae! GunBuster Vol. 1")).toBe(titleKey("Top o Nerae! GunBuster Vol. 1"));
    expect(titleKey("Secret of Monkey Island, The")).toBe(titleKey("The Secret of Monkey Island"));
    expect(titleKey("Kidō Senshi")).not.toBe(titleKey("Kido Senshi"));
  });

  it("gives a disc's number in its box's form", () => {
    expect(boxNumber("T-21301G-0")).toBe("T-21301G");
    expect(boxNumber("T-30001G--1")).toBe("T-30001G");
    expect(boxNumber("FXNHE742-0")).toBe("FXNHE742");
    expect(boxNumber("G-6041-0")).toBe("G-6041");
    expect(boxNumber("HCD4001")).toBe("HCD4001");
    expect(boxNumber("610-6458-01")).toBe("610-6458-01");
    expect(withoutDiscForms(["610-6621", "610-6621-0", "T-9109G", "610-6458-01"])).toEqual(["610-6621", "T-9109G", "610-6458-01"]);
  });

  it("joins a unique title, and the discs of one box as one game with the box's number", () => {
    expect(joinOf(1)).toMatchObject([{ gameEditionId: null, modelNumber: ["T-21702G"] }]);
    expect(joinOf(2)).toMatchObject([{ gameEditionId: null, modelNumber: ["T-23403G"] }]);
    expect(joinOf(3)).toMatchObject([{ modelNumber: ["T-1234G"] }]);
  });

  it("leaves out demos and overseas discs, and gives a game with a reboxed edition of the same title the numbers", () => {
    expect(joinOf(4)).toMatchObject([{ gameEditionId: null, libretroTitle: "Horror Tour", modelNumber: ["T-24301G"] }]);
  });

  it("joins nothing when two libretro titles or two games share the key", () => {
    expect(joinOf(5)).toEqual([]);
    expect(joinOf(6)).toEqual([]);
    expect(joinOf(7)).toEqual([]);
  });

  it("gives an edition under its own title its own number", () => {
    expect(joinOf(8)).toMatchObject([{ gameEditionId: 80, modelNumber: ["GS-9100"] }]);
  });

  it("gives a reissue redump names (Satakore) to the game's one edition of that kind, else to the game", () => {
    expect(joinOf(11)).toMatchObject([
      { gameEditionId: null, modelNumber: ["T-30001G"] },
      { gameEditionId: 111, modelNumber: ["T-30004G"] },
    ]);
    expect(joinOf(12)).toMatchObject([{ gameEditionId: null, modelNumber: ["T-20118G"] }]);
  });

  it("keeps to the platform, and drops what is no model number", () => {
    expect(joins.some((join) => join.platformKey === "pcecd")).toBe(false);
    expect(joinOf(9)).toEqual([]);
  });

  it("gives the same joins whatever order the titles come in", () => {
    expect(joinByTitle({ [SATURN]: saturnRedump }, [...titles].reverse(), isModelNumber)).toEqual(joins);
  });
});

// --- The hand-checked sample ----------------------------------------------------------------

interface SampleRow {
  platform: string;
  verdict: string;
  reason: string;
}

const [header, ...lines] = sampleText.trimEnd().split("\n");
const columns = (header ?? "").split("\t");
const sample: SampleRow[] = lines.map((line) => {
  const cells = line.split("\t");
  const cell = (name: string) => cells[columns.indexOf(name)] ?? "";
  return { platform: cell("platform"), verdict: cell("verdict"), reason: cell("reason") };
});

describe("the hand-checked sample of title joins", () => {
  it("has at least 50 joins, each with a verdict and its reason, spread over every platform joined by title", () => {
    expect(sample.length).toBeGreaterThanOrEqual(50);
    for (const row of sample) {
      expect(["right", "wrong"]).toContain(row.verdict);
      expect(row.reason).not.toBe("");
    }
    expect(new Set(sample.map((row) => row.platform))).toEqual(new Set(Object.values(TITLE_JOIN_SYSTEMS)));
  });

  it.each(Object.values(TITLE_JOIN_SYSTEMS))("is at least 98%% right on %s, which ships the join", (platform) => {
    const rows = sample.filter((row) => row.platform === platform);
    const right = rows.filter((row) => row.verdict === "right").length;
    expect(right / rows.length).toBeGreaterThanOrEqual(0.98);
  });
});
