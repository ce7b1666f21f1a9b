/** The values of every `name="..."` attribute in an HTML text, in order. */
export const attributes = (html: string, name: string) => [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, "g"))].map((m) => m[1]!);
