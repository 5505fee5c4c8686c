// A local stand-in for Telegram's Bot API (https://api.telegram.org/bot<token>/<method>) on
// 127.0.0.1, reached through the adapter's `apiUrl`. It records every call and refuses what
// Telegram refuses that a card could run into: callback data over 64 bytes, text over 4096.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const telegramToken = '123456:askseam-test';
export const telegramSecret = 'askseam-telegram-secret';
export const chatId = -100123;

export interface TelegramCall {
  method: string;
  args: Record<string, unknown>;
  result?: unknown;
}

export interface TelegramRecorder {
  url: string;
  calls: TelegramCall[];
  of(method: string): TelegramCall[];
  waitFor(method: string, count?: number): Promise<TelegramCall[]>;
  close(): Promise<void>;
}

function markupProblems(markup: unknown): string[] {
  const rows = (markup as { inline_keyboard?: { text?: string; callback_data?: string }[][] } | undefined)?.inline_keyboard ?? [];
  const problems: string[] = [];
  for (const row of rows) for (const button of row) {
    if (button.callback_data !== undefined && Buffer.byteLength(button.callback_data) > 64) problems.push('Bad Request: BUTTON_DATA_INVALID');
  }
  return problems;
}

export async function startTelegramRecorder(): Promise<TelegramRecorder> {
  const calls: TelegramCall[] = [];
  const waiters: (() => void)[] = [];
  let messageId = 100;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const match = /^\/bot([^/]+)\/(.+)$/.exec(req.url ?? '');
      const reply = (status: number, payload: Record<string, unknown>, call?: TelegramCall) => {
        if (call !== undefined) call.result = payload.result;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
        for (const wake of waiters.splice(0)) wake();
      };
      if (match?.[1] !== telegramToken) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const call: TelegramCall = { method: match[2]!, args: JSON.parse(body || '{}') as Record<string, unknown> };
      calls.push(call);
      const refuse = (description: string) => reply(400, { ok: false, error_code: 400, description }, call);
      switch (call.method) {
        case 'getMe':
          return reply(200, { ok: true, result: { id: 999, is_bot: true, first_name: 'askseam', username: 'askseam_bot' } }, call);
        case 'sendMessage':
        case 'editMessageText': {
          const problems = markupProblems(call.args.reply_markup);
          if (problems.length > 0) return refuse(problems[0]!);
          if (typeof call.args.text === 'string' && Array.from(call.args.text).length > 4096) return refuse('Bad Request: message is too long');
          const id = call.method === 'sendMessage' ? ++messageId : Number(call.args.message_id);
          return reply(200, { ok: true, result: { message_id: id, date: Math.floor(Date.now() / 1000), chat: { id: call.args.chat_id, type: 'supergroup', title: 'Team' }, text: call.args.text } }, call);
        }
        case 'answerCallbackQuery':
        case 'sendChatAction':
          return reply(200, { ok: true, result: true }, call);
        default:
          return reply(404, { ok: false, error_code: 404, description: 'Not Found: method not found' }, call);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const of = (method: string) => calls.filter((call) => call.method === method);
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    of,
    async waitFor(method, count = 1) {
      while (of(method).length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return of(method);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let updates = 0;

/** A webhook update as Telegram posts it, with the secret token header (or another one). */
export function telegramUpdate(update: Record<string, unknown>, secret = telegramSecret): Request {
  return new Request('https://app.example.com/api/telegram', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
    body: JSON.stringify({ update_id: ++updates, ...update }),
  });
}

const person = (id: number) => ({ id, is_bot: false, first_name: `Person${id}`, username: `person${id}` });

export function callbackQuery(from: number, messageId: number, data: string): Record<string, unknown> {
  return { callback_query: { id: `cb${++updates}`, from: person(from), chat_instance: 'ci', data, message: { message_id: messageId, date: 0, chat: { id: chatId, type: 'supergroup', title: 'Team' } } } };
}

export function replyMessage(from: number, replyTo: number, text: string): Record<string, unknown> {
  const chat = { id: chatId, type: 'supergroup', title: 'Team' };
  return { message: { message_id: 5000 + ++updates, date: Math.floor(Date.now() / 1000), from: person(from), chat, text, reply_to_message: { message_id: replyTo, date: 0, chat, from: { id: 999, is_bot: true, first_name: 'askseam', username: 'askseam_bot' } } } };
}
