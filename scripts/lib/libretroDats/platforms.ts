// The platforms the libretro-database DATs add to the catalog (the ones PigSaint's GameDataBase
// does not cover), named as Japanese collectors name them, each with the DAT that lists its
// Japanese releases. Ledger keys (`ps`) also serve the nickname table's platform column.
import type { PlatformRow } from "../masterRows";

export interface DatPlatform {
  key: string;
  /** The DAT inside a libretro-database checkout. */
  dat: string;
  /** metadat/<field>/<file> holding its publishers and serials, where libretro has them (No-Intro sets). */
  metadatFile: string | null;
  name: string;
  nameEn: string;
  shortName: string;
  maker: string;
  /** The Japanese launch, only where the day is known. */
  releaseDate: string | null;
}

const SCE = "ソニー・コンピュータエンタテインメント";
const redump = (file: string) => `metadat/redump/${file}`;
const noIntro = (file: string) => `metadat/no-intro/${file}`;

export const DAT_PLATFORMS: DatPlatform[] = [
  {
    key: "ps",
    dat: redump("Sony - PlayStation.dat"),
    metadatFile: null,
    name: "プレイステーション",
    nameEn: "PlayStation",
    shortName: "PS",
    maker: SCE,
    releaseDate: "1994-12-03",
  },
  {
    key: "ps2",
    dat: redump("Sony - PlayStation 2.dat"),
    metadatFile: null,
    name: "プレイステーション2",
    nameEn: "PlayStation 2",
    shortName: "PS2",
    maker: SCE,
    releaseDate: "2000-03-04",
  },
  {
    key: "dc",
    dat: redump("Sega - Dreamcast.dat"),
    metadatFile: null,
    name: "ドリームキャスト",
    nameEn: "Dreamcast",
    shortName: "DC",
    maker: "セガ",
    releaseDate: "1998-11-27",
  },
  {
    key: "ngcd",
    dat: redump("SNK - Neo Geo CD.dat"),
    metadatFile: null,
    name: "ネオジオCD",
    nameEn: "Neo Geo CD",
    shortName: "NGCD",
    maker: "SNK",
    releaseDate: "1994-09-09",
  },
  {
    key: "3do",
    dat: redump("The 3DO Company - 3DO.dat"),
    metadatFile: null,
    name: "3DO",
    nameEn: "3DO Interactive Multiplayer",
    shortName: "3DO",
    maker: "The 3DO Company",
    releaseDate: "1994-03-20",
  },
  {
    key: "pc98",
    dat: redump("NEC - PC-98.dat"),
    metadatFile: null,
    name: "PC-9801",
    nameEn: "PC-9801",
    shortName: "PC-98",
    maker: "日本電気",
    releaseDate: null,
  },
  {
    key: "ws",
    dat: noIntro("Bandai - WonderSwan.dat"),
    metadatFile: "Bandai - WonderSwan.dat",
    name: "ワンダースワン",
    nameEn: "WonderSwan",
    shortName: "WS",
    maker: "バンダイ",
    releaseDate: "1999-03-04",
  },
  {
    key: "wsc",
    dat: noIntro("Bandai - WonderSwan Color.dat"),
    metadatFile: "Bandai - WonderSwan Color.dat",
    name: "ワンダースワンカラー",
    nameEn: "WonderSwan Color",
    shortName: "WSC",
    maker: "バンダイ",
    releaseDate: "2000-12-09",
  },
  {
    key: "msx",
    dat: noIntro("Microsoft - MSX.dat"),
    metadatFile: "Microsoft - MSX.dat",
    name: "MSX",
    nameEn: "MSX",
    shortName: "MSX",
    maker: "アスキー、マイクロソフト",
    releaseDate: null,
  },
  {
    key: "msx2",
    dat: noIntro("Microsoft - MSX2.dat"),
    metadatFile: "Microsoft - MSX2.dat",
    name: "MSX2",
    nameEn: "MSX2",
    shortName: "MSX2",
    maker: "アスキー、マイクロソフト",
    releaseDate: null,
  },
];

export const DAT_PLATFORM_KEYS: string[] = DAT_PLATFORMS.map((platform) => platform.key);

export function platformRow(platform: DatPlatform, platformId: number): PlatformRow {
  const { name, nameEn, shortName, maker, releaseDate } = platform;
  return { platformId, name, nameEn, shortName, maker, releaseDate, custom: false };
}
