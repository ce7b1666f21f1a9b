import { z } from "zod";

type PatchShape<K extends string, I extends z.ZodType, S extends z.ZodRawShape> = Record<K, I> & {
  -readonly [P in keyof S]: z.ZodOptional<S[P]>;
} & {
  revision: z.ZodOptional<z.ZodString>;
};

/**
 * The input of an update tool for records an add tool creates: the record's id (required), then
 * its fields and the revision last read (both optional: an omitted field is kept).
 */
export function patchInput<K extends string, I extends z.ZodType, S extends z.ZodRawShape>(idKey: K, idArg: I, fields: S, addTool: string) {
  const revision = z.string().min(1).describe(`From ${addTool} or the last update.`);
  // zod cannot type a mask keyed by a generic name: PatchShape states what partial().required() makes.
  const all: z.ZodObject = z.strictObject({ [idKey]: idArg, ...fields, revision }).partial();
  const required: Record<string, true> = { [idKey]: true };
  return all.required(required) as unknown as z.ZodObject<PatchShape<K, I, S>, z.core.$strict>;
}

/** The fields a patch sets: those given, null included (null clears). */
export const givenFields = <T extends object>(changes: T) =>
  Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
