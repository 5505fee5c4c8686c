import {
  UserQuestionError,
  answerMismatch,
  isSensitiveQuestion,
  type AskUserQuestionAnswer,
  type AskUserQuestionItem,
  type AskUserQuestionRequest,
  type UserQuestionProvider,
} from '@askseam/user-questions';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { answerFromContent, elicitationFormFor, withDefaults } from './elicitation-form.js';
import { McpBridgeError } from './errors.js';
import { currentToolCall } from './tool-call-context.js';

export interface ElicitationProviderOptions {
  /**
   * How many times one question is put to the person when an accepted form does not make a
   * fitting answer (say, an option and other text on a single-choice question): each new form
   * says what was wrong and keeps what they entered. Default 3.
   */
  maxAttempts?: number | undefined;
}

/**
 * The longest delay a timer can count. The SDK gives up on a request after 60 s unless told
 * otherwise; a person may take longer, so the request itself waits this long and the seam's own
 * deadline (`timeoutMs`, none by default) decides, cancelling the request through its signal.
 */
const noSdkTimeoutMs = 2_147_483_647;

/**
 * An askseam provider that asks through the connected MCP client's form elicitation: register it
 * with `userQuestions.registerProvider(…)` and every `ask` becomes an `elicitation/create` form.
 * The accepted form is rebuilt into an answer and checked with the seam's own rule; decline and
 * cancel reject `ASK_CANCELLED`; the seam's abort and timeout cancel the request. A question that
 * asks for a secret (marked `sensitive`, or worded as one: `isSensitiveQuestion`) is refused with
 * `SENSITIVE_QUESTION` before anything is sent: the MCP spec forbids secrets in form mode.
 */
export function createElicitationProvider(server: McpServer | Server, options: ElicitationProviderOptions = {}): UserQuestionProvider {
  const lowLevel: Server = 'server' in server ? server.server : server;
  const maxAttempts = options.maxAttempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new McpBridgeError('INVALID_OPTIONS', `maxAttempts must be a whole number of at least 1, not ${String(maxAttempts)}.`);
  }
  let firstIdSpent: Promise<unknown> | undefined;
  return {
    async ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
      const capability = lowLevel.getClientCapabilities()?.elicitation;
      if (capability === undefined || (capability.form === undefined && Object.keys(capability).length > 0)) {
        const client = lowLevel.getClientVersion()?.name ?? 'The connected MCP client';
        throw new McpBridgeError(
          'NO_ELICITATION',
          `${client} did not declare form elicitation (capabilities.elicitation.form), so it cannot show askseam's questions; nothing was sent. ` +
            'Use a client that supports elicitation, or register another askseam provider (the WebSocket host, the terminal).',
        );
      }
      const secret = request.questions.find(isSensitiveQuestion);
      if (secret !== undefined) throw sensitiveQuestionError(secret);
      // The SDK ignores `notifications/cancelled` for request id 0, and a server numbers its own
      // requests from 0: were the first elicitation id 0, withdrawing it would leave the form open
      // on the client. A ping takes that id first (once per provider).
      firstIdSpent ??= lowLevel.ping().catch(() => undefined);
      await firstIdSpent;
      const form = elicitationFormFor(request.questions);
      const toolCall = currentToolCall();
      let message = form.message;
      let requestedSchema = form.requestedSchema;
      for (let attempt = 1; ; attempt++) {
        const result = await elicit(lowLevel, { mode: 'form', message, requestedSchema }, request.signal, toolCall?.requestId);
        if (result.action === 'decline') throw new UserQuestionError('ASK_CANCELLED', 'The person declined the form in the MCP client (action "decline").', { cause: result });
        if (result.action === 'cancel') throw new UserQuestionError('ASK_CANCELLED', 'The person dismissed the form in the MCP client (action "cancel").', { cause: result });
        const answer = answerFromContent(form, result.content);
        // The one rule every answer passes; the seam checks it once more after we return.
        const mismatch = answerMismatch(request.questions, answer);
        if (mismatch === undefined) return answer;
        if (attempt >= maxAttempts) {
          throw new McpBridgeError('ELICITATION_CONTENT_INVALID', `The form came back ${attempt} time(s) without a fitting answer; the last problem: ${mismatch.message}`, { cause: mismatch });
        }
        message = `Your answer could not be used: ${mismatch.message} Please correct it.\n\n${form.message}`;
        requestedSchema = withDefaults(form, result.content ?? {});
      }
    },
  };
}

async function elicit(
  server: Server,
  params: Parameters<Server['elicitInput']>[0],
  signal: AbortSignal | undefined,
  relatedRequestId: string | number | undefined,
): Promise<ElicitResult> {
  try {
    return await server.elicitInput(params, {
      timeout: noSdkTimeoutMs,
      ...(signal === undefined ? {} : { signal }),
      // Over Streamable HTTP the form must travel on the stream of the tool call that waits for it.
      ...(relatedRequestId === undefined ? {} : { relatedRequestId }),
    });
  } catch (error) {
    // The seam has already settled the ask on abort or timeout; this rejection goes nowhere.
    if (signal?.aborted) throw new UserQuestionError('ASK_ABORTED', 'The question was withdrawn while the form was open.', { cause: error });
    if (error instanceof McpError && error.code === ErrorCode.InvalidParams) {
      throw new McpBridgeError('ELICITATION_CONTENT_INVALID', `The MCP client's form answer does not fit the requested form: ${error.message}`, { cause: error });
    }
    throw new McpBridgeError('ELICITATION_FAILED', `The elicitation request failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * The refusal of a secret, written for the model that asked (it reaches it as the tool's error
 * text): what was refused and why, and a way on that needs no secret in the conversation.
 */
function sensitiveQuestionError(question: AskUserQuestionItem): McpBridgeError {
  return new McpBridgeError(
    'SENSITIVE_QUESTION',
    `Question "${question.id}" asks for a secret (a password, key, token or other credential), and MCP forbids asking for secrets ` +
      "through the client's form (elicitation form mode): nothing was asked. Do not ask for the secret itself again. " +
      'Instead ask the person to put it where your tools can read it (for example an environment variable such as API_TOKEN, or a file ' +
      'you name) and to confirm with a choice question (options like "Done" and "Skip"), or continue without it.',
  );
}
