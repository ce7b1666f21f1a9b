/** The `.d.ts` text for an OpenAPI document (an object, already parsed). */
export function generateTypes(document: object): Promise<string>;
