import type { OpenAIFunctionTool } from '@askseam/tool-ask-user';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import type { OpenAIAgentConfig } from './config.js';
import { DemoError } from './errors.js';

// One round trip to an OpenAI-compatible `POST /chat/completions`, with fetch and no SDK. Only the
// fields the demo uses are read; servers add others freely.

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The assistant's reply, normalised: always a string for `arguments`, never a missing list. */
export interface AssistantReply {
  content: string | null;
  toolCalls: ChatToolCall[];
}

export interface ChatCompletionRequest {
  config: Pick<OpenAIAgentConfig, 'baseUrl' | 'apiKey' | 'model'>;
  messages: readonly ChatMessage[];
  tools: readonly OpenAIFunctionTool[];
  signal: AbortSignal;
  /** A hung endpoint must not hang the demo. Default 120 s. */
  timeoutMs?: number;
}

const toolCallSchema = z.object({
  id: z.string().min(1),
  function: z.object({
    name: z.string(),
    // Some compatible servers send the arguments as an object rather than as JSON text.
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
  }),
});

const responseSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z.array(toolCallSchema).nullish(),
        }),
      }),
    )
    .min(1),
});

export async function requestChatCompletion({ config, messages, tools, signal, timeoutMs = 120_000 }: ChatCompletionRequest): Promise<AssistantReply> {
  const url = `${config.baseUrl}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKey !== undefined) headers.authorization = `Bearer ${config.apiKey}`;

  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: config.model, messages, tools }),
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof Error && error.name === 'TimeoutError') {
      throw new DemoError('MODEL_HTTP', `The model endpoint ${url} did not answer within ${timeoutMs / 1000} s.`, { cause: error });
    }
    throw new DemoError('MODEL_HTTP', `Could not reach the model endpoint ${url}: ${reasonOf(error)}. Check OPENAI_BASE_URL and that the server is running.`, {
      cause: error,
    });
  }

  const body = await response.text();
  if (!response.ok) {
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    throw new DemoError('MODEL_HTTP', `The model endpoint ${url} answered ${status}: ${errorDetail(body)}${statusHint(response.status)}`);
  }

  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new DemoError('MODEL_RESPONSE', `The model endpoint ${url} answered with something that is not JSON: ${excerpt(body)}`);
  }
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DemoError(
      'MODEL_RESPONSE',
      `The model endpoint ${url} answered JSON that is not a chat completion (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}): ${excerpt(body)}`,
    );
  }
  // `.min(1)` above guarantees a first choice.
  const message = parsed.data.choices[0]!.message;
  return {
    content: message.content ?? null,
    toolCalls: (message.tool_calls ?? []).map((call) => ({
      id: call.id,
      type: 'function',
      function: {
        name: call.function.name,
        arguments: typeof call.function.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function.arguments),
      },
    })),
  };
}

/** The `error.message` most compatible servers send, or the start of whatever else came. */
function errorDetail(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string' && message !== '') return message;
  } catch {
    // Not JSON: show the text itself.
  }
  return body.trim() === '' ? '(empty body)' : excerpt(body);
}

function statusHint(status: number): string {
  if (status === 401 || status === 403) return ' Check OPENAI_API_KEY.';
  if (status === 404) return ' Check OPENAI_BASE_URL (it usually ends in /v1) and OPENAI_MODEL.';
  if (status === 429) return ' The endpoint is rate-limiting this key or its quota is used up.';
  return '';
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    // undici puts the useful part ("ECONNREFUSED …") in the cause of a generic "fetch failed".
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
