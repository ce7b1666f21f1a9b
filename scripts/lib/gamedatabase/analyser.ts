// The morphological analyser behind readings.ts: Lindera with the IPADIC dictionary, compiled to
// WebAssembly for Node. Only the conversion script loads it; the Worker never does.
import type { Analyser } from "./readings";

/** The fields of a Lindera IPADIC token that a reading needs (unknown words have no reading). */
interface Token {
  surface: string;
  reading?: string;
}

const KANA_OR_DIGITS = /^[\u3041-\u3096\u30a1-\u30faー0-9]+$/;

/** The reading of one token: the dictionary's, or the surface when it is kana or digits already. */
function tokenReading(token: Token): string | null {
  if (token.reading !== undefined && token.reading !== "*" && token.reading !== "") return token.reading;
  return KANA_OR_DIGITS.test(token.surface) ? token.surface : null;
}

/** Loads the dictionary (a third of a second) and answers readings in katakana, or null when a word is unknown. */
export async function loadAnalyser(): Promise<Analyser> {
  const { TokenizerBuilder } = await import("lindera-wasm-nodejs-ipadic");
  const builder = new TokenizerBuilder();
  builder.setDictionary("embedded://ipadic");
  builder.setMode("normal");
  const tokenizer = builder.build();
  return {
    readingOf(text) {
      const readings = (tokenizer.tokenize(text) as Token[]).map(tokenReading);
      return readings.every((reading) => reading !== null) ? readings.join("") : null;
    },
  };
}
