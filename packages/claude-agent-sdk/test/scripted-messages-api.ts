// A scripted Anthropic Messages API on 127.0.0.1: the Claude Agent SDK's CLI is pointed at it with
// ANTHROPIC_BASE_URL and a dummy key, runs its real tool loop, and gets the replies scripted here,
// streamed as the server-sent events the real API sends. Every request is kept, so a test reads
// exactly what Claude would read next (the tool_result the CLI built from our answer).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One assistant turn the scripted model sends: some text, or one tool call. */
export type ScriptedTurn = { text: string } | { toolUse: { id: string; name: string; input: Record<string, unknown> } };

/** A content block of a message the CLI sent (only the fields the tests read are typed). */
export interface SentBlock {
  type: string;
  text?: string;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

/** A message of a request the CLI sent to /v1/messages. */
export interface SentMessage {
  role: string;
  content: string | SentBlock[];
}

export interface ScriptedMessagesApi {
  url: string;
  /** Queue the next replies, in order; one per request the CLI makes. */
  reply(...turns: ScriptedTurn[]): void;
  /** Every /v1/messages request body received so far. */
  readonly requests: { messages: SentMessage[]; tools?: { name: string }[] }[];
  /** The tool_result the last request carried for `toolUseId` (what Claude reads back). */
  toolResult(toolUseId: string): SentBlock | undefined;
  close(): Promise<void>;
}

const model = 'claude-scripted-1';

function events(turn: ScriptedTurn, index: number): object[] {
  const start = { type: 'message_start', message: { id: `msg_${index}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } };
  const blocks =
    'text' in turn
      ? [
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } },
        ]
      : [
          { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: turn.toolUse.id, name: turn.toolUse.name, input: {} } },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.toolUse.input) } },
        ];
  const stopReason = 'text' in turn ? 'end_turn' : 'tool_use';
  return [start, ...blocks, { type: 'content_block_stop', index: 0 }, { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 1 } }, { type: 'message_stop' }];
}

export async function startScriptedMessagesApi(): Promise<ScriptedMessagesApi> {
  const queue: ScriptedTurn[] = [];
  const requests: ScriptedMessagesApi['requests'] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `${req.method} ${req.url} is not scripted` } }));
        return;
      }
      requests.push(JSON.parse(body));
      const turn = queue.shift();
      if (turn === undefined) {
        // A request nobody scripted fails loudly: the test sees an API error, never a made-up reply.
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'the scripted model has no reply left' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of events(turn, requests.length)) res.write(`event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reply: (...turns) => void queue.push(...turns),
    requests,
    toolResult(toolUseId) {
      const last = requests.at(-1);
      for (const message of last?.messages ?? []) {
        if (typeof message.content === 'string') continue;
        const block = message.content.find((each) => each.type === 'tool_result' && each.tool_use_id === toolUseId);
        if (block) return block;
      }
      return undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text of a tool_result block (a string, or text blocks). */
export function resultText(block: SentBlock | undefined): string {
  if (block === undefined) return '';
  if (typeof block.content === 'string') return block.content;
  if (Array.isArray(block.content)) return block.content.map((each: { text?: string }) => each.text ?? '').join('');
  return '';
}

/** A private working directory and config dir for the CLI, and the environment that points it at `apiUrl`. */
export function claudeSandbox(apiUrl: string): { dir: string; env: Record<string, string | undefined>; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-claude-'));
  return {
    dir,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      CLAUDE_CONFIG_DIR: join(dir, '.claude'),
      ANTHROPIC_BASE_URL: apiUrl,
      ANTHROPIC_API_KEY: 'sk-ant-dummy-key-for-the-scripted-api',
      // No telemetry, update checks or other calls beyond the Messages API.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
