// A local stand-in for Slack's Web API (https://slack.com/api/<method>) on 127.0.0.1: the real
// Slack adapter's WebClient talks to it through the adapter's `apiUrl`. It records every call and
// refuses over-limit Block Kit the way Slack does (ok: false, error: invalid_blocks), because the
// adapter sends whatever it is given and Slack would refuse the whole message in production.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  args: Record<string, unknown>;
  /** What the recorder answered. */
  result?: Record<string, unknown>;
}

export const botToken = 'xoxb-askseam-test';
export const botUserId = 'UBOT0001';

const limits = { messageBlocks: 50, viewBlocks: 100, header: 150, section: 3000, fields: 10, actionsElements: 25, buttonText: 75, buttonValue: 2000, actionId: 255, blockId: 255, selectOptions: 100, optionText: 75, optionValue: 150, optionDescription: 75, checkboxOptions: 10, contextElements: 10, viewTitle: 24 };

// The WebClient sends these as JSON strings inside the form body.
const jsonFields = new Set(['blocks', 'view', 'attachments', 'metadata']);

const textOf = (object: unknown): string => (typeof object === 'object' && object !== null && typeof (object as { text?: unknown }).text === 'string' ? (object as { text: string }).text : '');
const length = (text: string) => Array.from(text).length;

function optionProblems(options: unknown, where: string, max: number): string[] {
  if (!Array.isArray(options)) return [`${where}: options must be an array`];
  const problems: string[] = [];
  if (options.length > max) problems.push(`${where}: must provide at most ${max} items [json-pointer:${where}/options]`);
  options.forEach((option: Record<string, unknown>, index) => {
    if (length(textOf(option.text)) > limits.optionText) problems.push(`${where}/options/${index}/text: must be less than ${limits.optionText + 1} characters`);
    if (typeof option.value === 'string' && length(option.value) > limits.optionValue) problems.push(`${where}/options/${index}/value: must be less than ${limits.optionValue + 1} characters`);
    if (option.description !== undefined && length(textOf(option.description)) > limits.optionDescription) problems.push(`${where}/options/${index}/description: must be less than ${limits.optionDescription + 1} characters`);
  });
  return problems;
}

function elementProblems(element: Record<string, unknown>, where: string, actionIds: Set<string>): string[] {
  const problems: string[] = [];
  const actionId = element.action_id;
  if (typeof actionId === 'string') {
    if (length(actionId) > limits.actionId) problems.push(`${where}/action_id: too long`);
    if (actionIds.has(actionId)) problems.push(`${where}/action_id: duplicate action_id ${actionId}`);
    actionIds.add(actionId);
  }
  if (element.type === 'button') {
    if (length(textOf(element.text)) > limits.buttonText) problems.push(`${where}/text: must be less than ${limits.buttonText + 1} characters`);
    if (typeof element.value === 'string' && length(element.value) > limits.buttonValue) problems.push(`${where}/value: too long`);
  }
  if (element.type === 'static_select' || element.type === 'multi_static_select') problems.push(...optionProblems(element.options, where, limits.selectOptions));
  if (element.type === 'checkboxes' || element.type === 'radio_buttons') problems.push(...optionProblems(element.options, where, limits.checkboxOptions));
  return problems;
}

/** What Slack would refuse in these blocks, as its error messages; empty when they are fine. */
export function blockKitProblems(blocks: unknown, maxBlocks: number): string[] {
  if (!Array.isArray(blocks)) return ['blocks must be an array'];
  const problems: string[] = [];
  if (blocks.length > maxBlocks) problems.push(`must provide at most ${maxBlocks} items [json-pointer:/blocks]`);
  const actionIds = new Set<string>();
  let markdown = 0;
  const blockIds = new Set<string>();
  blocks.forEach((block: Record<string, unknown>, index) => {
    const where = `/blocks/${index}`;
    if (typeof block.block_id === 'string') {
      if (length(block.block_id) > limits.blockId || blockIds.has(block.block_id)) problems.push(`${where}/block_id: invalid or duplicate`);
      blockIds.add(block.block_id);
    }
    switch (block.type) {
      case 'header':
        if (length(textOf(block.text)) > limits.header) problems.push(`${where}/text: must be less than ${limits.header + 1} characters`);
        break;
      case 'section':
        if (length(textOf(block.text)) > limits.section) problems.push(`${where}/text: must be less than ${limits.section + 1} characters`);
        if (Array.isArray(block.fields) && block.fields.length > limits.fields) problems.push(`${where}/fields: too many`);
        if (block.accessory !== undefined) problems.push(...elementProblems(block.accessory as Record<string, unknown>, `${where}/accessory`, actionIds));
        break;
      case 'actions': {
        const elements = Array.isArray(block.elements) ? block.elements : [];
        if (elements.length > limits.actionsElements) problems.push(`${where}/elements: must provide at most ${limits.actionsElements} items`);
        elements.forEach((element: Record<string, unknown>, i) => problems.push(...elementProblems(element, `${where}/elements/${i}`, actionIds)));
        break;
      }
      case 'context':
        if (Array.isArray(block.elements) && block.elements.length > limits.contextElements) problems.push(`${where}/elements: too many`);
        break;
      case 'input':
        if (block.element !== undefined) problems.push(...elementProblems(block.element as Record<string, unknown>, `${where}/element`, actionIds));
        break;
      case 'markdown':
        markdown += length(String(block.text ?? ''));
        if (markdown > 12000) problems.push(`${where}/text: markdown blocks exceed 12000 characters in total`);
        break;
      case 'divider':
      case 'rich_text':
      case 'image':
        break;
      default:
        problems.push(`${where}: unsupported type ${String(block.type)}`);
    }
  });
  return problems;
}

export interface SlackRecorder {
  url: string;
  calls: RecordedCall[];
  /** Calls of one method, in order. */
  of(method: string): RecordedCall[];
  /** Resolves when `count` calls of `method` have been recorded. */
  waitFor(method: string, count?: number): Promise<RecordedCall[]>;
  close(): Promise<void>;
}

export async function startSlackRecorder(): Promise<SlackRecorder> {
  const calls: RecordedCall[] = [];
  const waiters: (() => void)[] = [];
  let ts = 1_700_000_000;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0]!;
      const args: Record<string, unknown> = {};
      if ((req.headers['content-type'] ?? '').includes('application/json')) Object.assign(args, JSON.parse(body || '{}'));
      else for (const [name, value] of new URLSearchParams(body)) args[name] = jsonFields.has(name) ? JSON.parse(value) : value;
      const call: RecordedCall = { method, args };
      const reply = (payload: Record<string, unknown>) => {
        call.result = payload;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
        for (const wake of waiters.splice(0)) wake();
      };
      if (req.headers.authorization !== `Bearer ${botToken}`) return reply({ ok: false, error: 'invalid_auth' });
      calls.push(call);
      switch (method) {
        case 'auth.test':
          return reply({ ok: true, user_id: botUserId, bot_id: 'BBOT0001', team_id: 'T0001', user: 'askseam', team: 'Test' });
        case 'users.info':
          return reply({ ok: true, user: { id: args.user, name: String(args.user).toLowerCase(), real_name: `Person ${String(args.user)}`, profile: { display_name: String(args.user).toLowerCase() } } });
        case 'chat.postMessage':
        case 'chat.update': {
          const problems = args.blocks === undefined ? [] : blockKitProblems(args.blocks, limits.messageBlocks);
          if (problems.length > 0) return reply({ ok: false, error: 'invalid_blocks', errors: problems, response_metadata: { messages: problems } });
          const messageTs = method === 'chat.update' ? String(args.ts) : `${++ts}.000100`;
          return reply({ ok: true, channel: args.channel, ts: messageTs, message: { text: args.text, ts: messageTs } });
        }
        case 'conversations.replies':
          return reply({ ok: true, messages: [], has_more: false });
        case 'chat.postEphemeral':
          return reply({ ok: true, message_ts: `${++ts}.000200` });
        case 'views.open': {
          const view = args.view as { blocks?: unknown; title?: unknown };
          const problems = blockKitProblems(view?.blocks, limits.viewBlocks);
          if (length(textOf(view?.title)) > limits.viewTitle) problems.push('/view/title: must be less than 25 characters');
          if (problems.length > 0) return reply({ ok: false, error: 'invalid_arguments', response_metadata: { messages: problems } });
          return reply({ ok: true, view: { id: `V${++ts}`, ...view } });
        }
        default:
          return reply({ ok: false, error: 'unknown_method' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const of = (method: string) => calls.filter((call) => call.method === method);
  return {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    of,
    async waitFor(method, count = 1) {
      while (of(method).length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return of(method);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
