import type { Context } from "hono";
import type { z } from "zod";
import type { Session } from "../../accounts/sessions";
import type { AppEnv } from "../../env";
import { ApiError } from "../../platform/errors";
import { publicOrigin } from "../../platform/publicOrigin";
import type { ToolDefinition } from "../../registry/defineTool";
import { invokeTool } from "../../registry/invokeTool";

/** A tool as the signed-in person calls it from a page: its arguments and its answer. */
export type PersonCall = <I extends z.ZodObject, O extends z.ZodType>(
  tool: ToolDefinition<I, O>,
  input: z.input<I>,
) => Promise<z.output<O>>;

/**
 * Calls a tool for the session's person through the one pipeline (invokeTool), as REST and MCP
 * do for a key: the same validation, plan rules and quota. A refusal is thrown as its ApiError.
 */
export const callerOf =
  (c: Context<AppEnv>, session: Session): PersonCall =>
  async (tool, input) => {
    const outcome = await invokeTool(tool as unknown as ToolDefinition, {
      face: "pages",
      env: c.env,
      authorization: undefined,
      person: session.userId,
      requestId: c.get("requestId"),
      origin: publicOrigin(c.env, c.req.url),
      input: { raw: input as Record<string, unknown> },
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.result as z.output<typeof tool.output>;
  };

/** Whether a refusal is one of the caller's (a 4xx) that a page shows beside its form, not as an error page. */
export const isRefusal = (error: unknown): error is ApiError => error instanceof ApiError && error.status < 500 && error.status !== 401;
