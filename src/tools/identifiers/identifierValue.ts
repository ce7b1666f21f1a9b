import { invalidInput } from "../../platform/errors";
import { normalizeCode } from "../../platform/normalize";
import { janCode } from "../../platform/schemas";
import type { IdentifierKind } from "./ownSuggestions";

/**
 * GS1 Japan's prefixes: a JAN printed on a box sold in Japan starts with 45 or 49. The catalog
 * describes Japanese releases, so a code with another prefix (an overseas edition, an in-store
 * code starting 2) names something the catalog does not hold and is refused.
 */
const JAPANESE_PREFIXES = ["45", "49"];
const MODEL_NUMBER_MAX = 40;

export interface IdentifierValue {
  /** As stored and shown: a JAN's digits, a model number as given (trimmed). */
  value: string;
  /** The normalised code form searches compare (platform/normalize.ts normalizeCode). */
  searchValue: string;
}

/** A JAN: spaces and hyphens dropped, 8 or 13 digits, a right check digit, a Japanese prefix. */
function janValue(given: string): IdentifierValue {
  const digits = given.replace(/[\s-]/g, "");
  const checked = janCode.safeParse(digits);
  if (!checked.success) throw invalidInput("value", `A JAN code ${checked.error.issues[0]!.message} (JAN-13 or JAN-8).`);
  if (!JAPANESE_PREFIXES.some((prefix) => digits.startsWith(prefix))) {
    throw invalidInput("value", "A JAN code of a Japanese release starts with 45 or 49.");
  }
  return { value: digits, searchValue: digits };
}

function modelNumberValue(given: string): IdentifierValue {
  const value = given.trim();
  const searchValue = normalizeCode(value);
  if (searchValue === "") throw invalidInput("value", "A model number needs letters or digits.");
  if (value.length > MODEL_NUMBER_MAX) throw invalidInput("value", `A model number has at most ${MODEL_NUMBER_MAX} characters.`);
  return { value, searchValue };
}

export const identifierValueOf = (kind: IdentifierKind, given: string): IdentifierValue =>
  kind === "janCode" ? janValue(given) : modelNumberValue(given);
