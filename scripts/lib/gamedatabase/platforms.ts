// The platforms of the converted catalog, as a Japanese collector names them. One PigSaint CSV
// holds a platform's Japanese and overseas releases; collectors treat an overseas cartridge or
// disc (NES, Genesis, ...) as a different item, so each is a platform of its own, made only with
// `--regions all`. Arcade: one platform per PigSaint file, i.e. per maker's boards, because the
// same ID in two files is two different boards (Konami's Gradius, Nintendo's VS. Gradius).
// releaseDate is the hardware's Japanese launch; an overseas platform has none.

export type PlatformRegion = "japan" | "overseas";

export interface PlatformSpec {
  /** The ledger's key, and the prefix of its games' keys (`sfc/akumajoudraculasuper`). */
  key: string;
  file: string;
  region: PlatformRegion;
  name: string;
  nameEn: string;
  shortName: string;
  maker: string;
  releaseDate: string | null;
}

const NINTENDO = "任天堂";
const SEGA = "セガ";
const NEC_HE = "NECホームエレクトロニクス";

type Launch = Omit<PlatformSpec, "file" | "region">;

/** A file with releases in both markets: its Japanese platform and its overseas one. */
function bothMarkets(file: string, japan: Launch, overseas: Omit<Launch, "maker" | "releaseDate">): PlatformSpec[] {
  return [
    { ...japan, file, region: "japan" },
    { ...overseas, file, region: "overseas", maker: japan.maker, releaseDate: null },
  ];
}

function japanOnly(file: string, japan: Launch): PlatformSpec[] {
  return [{ ...japan, file, region: "japan" }];
}

function arcade(file: string, key: string, maker: string, makerEn: string): PlatformSpec[] {
  return bothMarkets(
    file,
    {
      key: `arcade-${key}`,
      name: `アーケード (${maker})`,
      nameEn: `Arcade (${makerEn})`,
      shortName: `AC ${maker}`,
      maker,
      releaseDate: null,
    },
    {
      key: `arcade-${key}-overseas`,
      name: `アーケード (${maker}・海外版)`,
      nameEn: `Arcade (${makerEn}, overseas)`,
      shortName: `AC ${maker} 海外`,
    },
  );
}

export const PLATFORMS: PlatformSpec[] = [
  ...bothMarkets(
    "console_nintendo_famicom_nes.csv",
    { key: "fc", name: "ファミリーコンピュータ", nameEn: "Family Computer", shortName: "FC", maker: NINTENDO, releaseDate: "1983-07-15" },
    { key: "nes", name: "ファミリーコンピュータ (海外版)", nameEn: "Nintendo Entertainment System", shortName: "NES" },
  ),
  ...japanOnly("console_nintendo_famicomdisksystem.csv", {
    key: "fds",
    name: "ディスクシステム",
    nameEn: "Famicom Disk System",
    shortName: "FDS",
    maker: NINTENDO,
    releaseDate: "1986-02-21",
  }),
  ...bothMarkets(
    "console_nintendo_superfamicom_snes.csv",
    { key: "sfc", name: "スーパーファミコン", nameEn: "Super Famicom", shortName: "SFC", maker: NINTENDO, releaseDate: "1990-11-21" },
    { key: "snes", name: "スーパーファミコン (海外版)", nameEn: "Super Nintendo Entertainment System", shortName: "SNES" },
  ),
  ...japanOnly("console_nintendo_satellaview.csv", {
    key: "bs",
    name: "サテラビュー",
    nameEn: "Satellaview",
    shortName: "BS",
    maker: NINTENDO,
    releaseDate: null,
  }),
  ...japanOnly("console_nintendo_bandai_sufamiturbo.csv", {
    key: "st",
    name: "スーファミターボ",
    nameEn: "SuFami Turbo",
    shortName: "ST",
    maker: "バンダイ",
    releaseDate: "1996-06-28",
  }),
  ...bothMarkets(
    "console_nintendo_gameboy.csv",
    { key: "gb", name: "ゲームボーイ", nameEn: "Game Boy", shortName: "GB", maker: NINTENDO, releaseDate: "1989-04-21" },
    { key: "gb-overseas", name: "ゲームボーイ (海外版)", nameEn: "Game Boy (overseas)", shortName: "GB 海外" },
  ),
  ...bothMarkets(
    "console_nintendo_gameboycolor.csv",
    { key: "gbc", name: "ゲームボーイカラー", nameEn: "Game Boy Color", shortName: "GBC", maker: NINTENDO, releaseDate: "1998-10-21" },
    { key: "gbc-overseas", name: "ゲームボーイカラー (海外版)", nameEn: "Game Boy Color (overseas)", shortName: "GBC 海外" },
  ),
  ...bothMarkets(
    "console_nintendo_gameboyadvance.csv",
    {
      key: "gba",
      name: "ゲームボーイアドバンス",
      nameEn: "Game Boy Advance",
      shortName: "GBA",
      maker: NINTENDO,
      releaseDate: "2001-03-21",
    },
    { key: "gba-overseas", name: "ゲームボーイアドバンス (海外版)", nameEn: "Game Boy Advance (overseas)", shortName: "GBA 海外" },
  ),
  ...bothMarkets(
    "console_nintendo_nintendo64.csv",
    { key: "n64", name: "NINTENDO64", nameEn: "Nintendo 64", shortName: "N64", maker: NINTENDO, releaseDate: "1996-06-23" },
    { key: "n64-overseas", name: "NINTENDO64 (海外版)", nameEn: "Nintendo 64 (overseas)", shortName: "N64 海外" },
  ),
  ...japanOnly("console_nintendo_64dd.csv", {
    key: "64dd",
    name: "64DD",
    nameEn: "64DD",
    shortName: "64DD",
    maker: NINTENDO,
    releaseDate: "1999-12-01",
  }),
  ...bothMarkets(
    "console_nintendo_virtualboy.csv",
    { key: "vb", name: "バーチャルボーイ", nameEn: "Virtual Boy", shortName: "VB", maker: NINTENDO, releaseDate: "1995-07-21" },
    { key: "vb-overseas", name: "バーチャルボーイ (海外版)", nameEn: "Virtual Boy (overseas)", shortName: "VB 海外" },
  ),
  // The file also holds the eight SuperGrafx HuCARDs, which collectors shelve with the PC Engine's.
  ...bothMarkets(
    "console_nec_pcengine_turbografx_supergrafx.csv",
    { key: "pce", name: "PCエンジン", nameEn: "PC Engine", shortName: "PCE", maker: NEC_HE, releaseDate: "1987-10-30" },
    { key: "tg16", name: "PCエンジン (海外版)", nameEn: "TurboGrafx-16", shortName: "TG16" },
  ),
  ...bothMarkets(
    "console_nec_cdrom2.csv",
    {
      key: "pcecd",
      name: "PCエンジン CD-ROM²",
      nameEn: "PC Engine CD-ROM²",
      shortName: "CD-ROM²",
      maker: NEC_HE,
      releaseDate: "1988-12-04",
    },
    { key: "tgcd", name: "PCエンジン CD-ROM² (海外版)", nameEn: "TurboGrafx-CD", shortName: "TGCD" },
  ),
  ...japanOnly("console_nec_pcfx.csv", {
    key: "pcfx",
    name: "PC-FX",
    nameEn: "PC-FX",
    shortName: "PC-FX",
    maker: NEC_HE,
    releaseDate: "1994-12-23",
  }),
  // With the SC-3000 and Othello Multivision releases, which play the same cartridges.
  ...bothMarkets(
    "console_sega_sg1000_sc3000_othellomultivision.csv",
    { key: "sg1000", name: "SG-1000", nameEn: "SG-1000", shortName: "SG-1000", maker: SEGA, releaseDate: "1983-07-15" },
    { key: "sg1000-overseas", name: "SG-1000 (海外版)", nameEn: "SG-1000 (overseas)", shortName: "SG-1000 海外" },
  ),
  // The Japanese Master System's releases (1987-) are in the same file and on the same shelf.
  ...bothMarkets(
    "console_sega_markIII_mastersystem.csv",
    { key: "mk3", name: "セガ・マークIII", nameEn: "Sega Mark III", shortName: "MkIII", maker: SEGA, releaseDate: "1985-10-20" },
    { key: "sms", name: "セガ・マークIII (海外版)", nameEn: "Master System", shortName: "SMS" },
  ),
  ...bothMarkets(
    "console_sega_megadrive_genesis.csv",
    { key: "md", name: "メガドライブ", nameEn: "Mega Drive", shortName: "MD", maker: SEGA, releaseDate: "1988-10-29" },
    { key: "genesis", name: "メガドライブ (海外版)", nameEn: "Genesis / Mega Drive (overseas)", shortName: "GEN" },
  ),
  ...bothMarkets(
    "console_sega_megacd_segacd.csv",
    { key: "mcd", name: "メガCD", nameEn: "Mega-CD", shortName: "MCD", maker: SEGA, releaseDate: "1991-12-12" },
    { key: "segacd", name: "メガCD (海外版)", nameEn: "Sega CD / Mega-CD (overseas)", shortName: "SCD" },
  ),
  ...bothMarkets(
    "console_sega_super32x.csv",
    { key: "32x", name: "スーパー32X", nameEn: "Super 32X", shortName: "32X", maker: SEGA, releaseDate: "1994-12-03" },
    { key: "32x-overseas", name: "スーパー32X (海外版)", nameEn: "32X (overseas)", shortName: "32X 海外" },
  ),
  ...bothMarkets(
    "console_sega_saturn.csv",
    { key: "ss", name: "セガサターン", nameEn: "Sega Saturn", shortName: "SS", maker: SEGA, releaseDate: "1994-11-22" },
    { key: "ss-overseas", name: "セガサターン (海外版)", nameEn: "Sega Saturn (overseas)", shortName: "SS 海外" },
  ),
  ...bothMarkets(
    "console_sega_gamegear.csv",
    { key: "gg", name: "ゲームギア", nameEn: "Game Gear", shortName: "GG", maker: SEGA, releaseDate: "1990-10-06" },
    { key: "gg-overseas", name: "ゲームギア (海外版)", nameEn: "Game Gear (overseas)", shortName: "GG 海外" },
  ),
  // Neo Geo Pocket and Neo Geo Pocket Color cartridges share one file (most play on both).
  ...bothMarkets(
    "console_snk_neogeopocket_neogeopocketcolor.csv",
    { key: "ngp", name: "ネオジオポケット", nameEn: "Neo Geo Pocket", shortName: "NGP", maker: "SNK", releaseDate: "1998-10-28" },
    { key: "ngp-overseas", name: "ネオジオポケット (海外版)", nameEn: "Neo Geo Pocket (overseas)", shortName: "NGP 海外" },
  ),
  ...bothMarkets(
    "console_pioneer_laseractive.csv",
    { key: "la", name: "レーザーアクティブ", nameEn: "LaserActive", shortName: "LA", maker: "パイオニア", releaseDate: "1993-08-20" },
    { key: "la-overseas", name: "レーザーアクティブ (海外版)", nameEn: "LaserActive (overseas)", shortName: "LA 海外" },
  ),
  ...arcade("arcade_capcom.csv", "capcom", "カプコン", "Capcom"),
  ...arcade("arcade_irem.csv", "irem", "アイレム", "Irem"),
  ...arcade("arcade_konami.csv", "konami", "コナミ", "Konami"),
  ...arcade("arcade_nichibutsu.csv", "nichibutsu", "日本物産", "Nichibutsu"),
  ...arcade("arcade_nintendo.csv", "nintendo", NINTENDO, "Nintendo"),
  ...arcade("arcade_sega.csv", "sega", SEGA, "Sega"),
  ...arcade("arcade_snk.csv", "snk", "SNK", "SNK"),
  ...arcade("arcade_taito.csv", "taito", "タイトー", "Taito"),
];

/** The CSV files the table knows. */
export const PLATFORM_FILES: string[] = [...new Set(PLATFORMS.map((platform) => platform.file))];

/** The platform a file's releases of one market belong to, if the table has one. */
export function platformFor(file: string, region: PlatformRegion): PlatformSpec | undefined {
  return PLATFORMS.find((platform) => platform.file === file && platform.region === region);
}

/**
 * The markets a row's Region names: a Japanese release if "Japan" is one of its parts, an
 * overseas one if any other region is ("Japan/USA" is both). "" and "Unknown" name none.
 */
export function marketsOf(regions: string[]): PlatformRegion[] {
  const known = regions.filter((region) => region !== "" && region !== "Unknown");
  const markets: PlatformRegion[] = [];
  if (known.includes("Japan")) markets.push("japan");
  if (known.some((region) => region !== "Japan")) markets.push("overseas");
  return markets;
}
