import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  INVALID_PARAMS,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type ProtocolEra,
  ProtocolError,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Bindings } from "../bindings";
import { argumentsHashOf, CONFIRM_TOKEN_TTL_SEC, spendWithoutActing } from "../platform/confirm";
import { createDb } from "../platform/db";
import { ApiError } from "../platform/errors";
import { openState, sealState } from "../platform/sealedState";
import type { ToolDefinition } from "../registry/defineTool";

/**
 * Two-step tools confirmed by the person, over MCP 2026-07-28: where the client can show a form,
 * the preview is not handed to the model with its confirmToken but asked of the person
 * (`input_required` with an `elicitation/create` form whose message is the spec's summary), and the
 * token rides in the `requestState`, sealed so the model can neither read nor change it. The
 * person's "yes" spends the token as a REST confirmation would: bound to the user, the tool, the
 * arguments and the target's revision, single-use, 10 minutes. Their "no" (decline, cancel, the box
 * left unticked) spends it too: the same state later sent with a "yes" is refused. Every other
 * client keeps the spec's summary + confirmToken flow.
 */

const STATE_PURPOSE = "mcp-confirmation";
const ANSWER_KEY = "confirm";

/** The form: one yes/no field the person ticks. */
const CONFIRM_FORM = {
  type: "object" as const,
  properties: { confirm: { type: "boolean" as const, title: "Go ahead / 実行する", default: false } },
  required: ["confirm"],
};

/** What a confirmation's requestState holds. */
interface ConfirmationState {
  tool: string;
  argumentsHash: string;
  confirmToken: string;
}

/** Form elicitation, as a 2026-07-28 request declares it in its envelope (an empty `elicitation` means form). */
function declaresFormElicitation(ctx: ServerContext): boolean {
  // The SDK types the envelope's keys loosely; the capabilities key holds what the client declared.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  return elicitation !== undefined && (Object.keys(elicitation).length === 0 || "form" in elicitation);
}

/** Whether this call of `tool` is confirmed by the person: a two-step tool, a 2026-07-28 request, a client that shows forms. */
export const confirmsThroughPerson = (tool: ToolDefinition, era: ProtocolEra, ctx: ServerContext) =>
  era === "modern" && "confirmToken" in tool.input.shape && declaresFormElicitation(ctx);

/** A requestState that does not open, or whose token is spent or someone else's: refused on the wire, as the SDK refuses one. */
export const refusedState = () =>
  new ProtocolError(INVALID_PARAMS, "Invalid or expired requestState: call the tool again for a new confirmation.");

/** The preview, asked of the person: the summary as the form's message, the token sealed in the state. */
export async function confirmationAsked(
  env: Bindings,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  preview: { summary: string; confirmToken: string },
  now: Date,
): Promise<InputRequiredResult> {
  const state: ConfirmationState = { tool: tool.name, argumentsHash: await argumentsHashOf(args), confirmToken: preview.confirmToken };
  return inputRequired({
    inputRequests: { [ANSWER_KEY]: inputRequired.elicit({ message: preview.summary, requestedSchema: CONFIRM_FORM }) },
    requestState: await sealState(env, STATE_PURPOSE, state, now, CONFIRM_TOKEN_TTL_SEC),
  });
}

export type PersonsAnswer =
  | { kind: "none" }
  | { kind: "confirmed"; confirmToken: string }
  | { kind: "declined"; confirmToken: string }
  /** The model sent a confirmToken itself. */
  | { kind: "refused"; error: ApiError }
  /** The requestState does not open for this tool and these arguments. */
  | { kind: "invalid" };

/**
 * What the retried call carries: nothing yet (a first call, or a retry without an answer: ask),
 * the person's yes (with the token to spend), or their no. A state that does not open for this
 * tool and these arguments is invalid; a confirmToken the model sends itself is refused, since
 * only the person confirms here.
 */
export async function personsAnswer(
  env: Bindings,
  ctx: ServerContext,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  now: Date,
): Promise<PersonsAnswer> {
  if (args.confirmToken !== undefined) {
    const message =
      "confirmToken: this client confirms through the person (elicitation); call without confirmToken and the person is asked.";
    return { kind: "refused", error: new ApiError("invalid_input", message, { field: "confirmToken" }) };
  }
  const sealed = ctx.mcpReq.requestState<string>();
  if (sealed === undefined) return { kind: "none" };
  const state = await openState<ConfirmationState>(env, STATE_PURPOSE, sealed, now);
  if (!state || state.tool !== tool.name || state.argumentsHash !== (await argumentsHashOf(args))) return { kind: "invalid" };
  const view = inputResponse(ctx.mcpReq.inputResponses, ANSWER_KEY);
  if (view.kind === "missing") return { kind: "none" };
  if (view.kind === "elicit" && view.action === "accept" && view.content?.confirm === true) {
    return { kind: "confirmed", confirmToken: state.confirmToken };
  }
  return { kind: "declined", confirmToken: state.confirmToken };
}

/**
 * The person said no (declined, cancelled, or left the box unticked): the confirmation is spent,
 * nothing changed, and the model is told so. A state already spent (its "yes" ran, or an earlier
 * answer ended it, also at the same moment) is refused instead: nothing is said that did not happen.
 */
export async function declinedAnswer(env: Bindings, confirmToken: string, now: Date): Promise<ApiError> {
  if (!(await spendWithoutActing(createDb(env.DB), confirmToken, now))) throw refusedState();
  return new ApiError("confirmation_declined", "The person did not confirm: nothing was removed or changed.");
}
