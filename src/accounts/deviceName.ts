/**
 * A passkey's default name: the browser and system that registered it, read from its User-Agent
 * ("Chrome on Android", "Safari on iPhone"). Brands that also say "Chrome" or "Safari" in their
 * User-Agent are tried first; an agent naming neither a known browser nor a known system gives
 * undefined, and the caller falls back to a dated name.
 */
const BROWSERS: [RegExp, string][] = [
  [/EdgA?\/|Edg(?:iOS)?\//, "Edge"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/CriOS\/|Chrome\/|Chromium\//, "Chrome"],
  [/Version\/[\d.]+.*Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

const firstMatch = (agent: string, patterns: [RegExp, string][]) => patterns.find(([pattern]) => pattern.test(agent))?.[1];

export function deviceNameOf(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  const browser = firstMatch(userAgent, BROWSERS);
  const system = firstMatch(userAgent, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system;
}
