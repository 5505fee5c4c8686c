// Shared set-up for the durability tests: real SQLite files in temp dirs, a store that can be
// told to fail or hold a call (to reach the failure paths of a real store), an HTTP client for
// the host's API, and a recorder for onResume.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryQuestionStore, type QuestionRecord, type QuestionStore } from '@askseam/store';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import type { WebSocketHost } from '../src/index.js';
import { TOKEN } from './fixture.js';

const dirs: string[] = [];
const stores: SqliteQuestionStore[] = [];

/** A fresh SQLite file path in its own temp dir (removed by `cleanupDurable`). */
export function tempDbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-host-'));
  dirs.push(dir);
  return join(dir, 'questions.db');
}

/** Open a SQLite store that `cleanupDurable` closes. */
export function openSqlite(file: string): SqliteQuestionStore {
  const store = new SqliteQuestionStore(file);
  stores.push(store);
  return store;
}

/** Close stores and remove temp dirs; call after the hosts are closed. */
export async function cleanupDurable(): Promise<void> {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

type Method = keyof QuestionStore;

/**
 * A real in-memory store with switches: `fail(method)` makes every call of it reject until
 * `heal(method)`; `hold(method)` parks calls until `release(method)`.
 */
export class SwitchableStore implements QuestionStore {
  readonly inner = new MemoryQuestionStore();
  readonly #failing = new Set<Method>();
  readonly #held = new Map<Method, (() => void)[]>();

  fail(method: Method): void {
    this.#failing.add(method);
  }
  heal(method: Method): void {
    this.#failing.delete(method);
  }
  hold(method: Method): void {
    if (!this.#held.has(method)) this.#held.set(method, []);
  }
  release(method: Method): void {
    const parked = this.#held.get(method) ?? [];
    this.#held.delete(method);
    for (const go of parked) go();
  }
  /** How many calls of `method` are parked. */
  parked(method: Method): number {
    return this.#held.get(method)?.length ?? 0;
  }

  async #gate(method: Method): Promise<void> {
    const parked = this.#held.get(method);
    if (parked !== undefined) await new Promise<void>((go) => parked.push(go));
    if (this.#failing.has(method)) throw new Error(`${method} failed (the test said so)`);
  }

  save: QuestionStore['save'] = async (record) => (await this.#gate('save'), this.inner.save(record));
  claim: QuestionStore['claim'] = async (rpcId, outcome, answer) => (await this.#gate('claim'), this.inner.claim(rpcId, outcome, answer));
  get: QuestionStore['get'] = async (rpcId) => (await this.#gate('get'), this.inner.get(rpcId));
  listPending: QuestionStore['listPending'] = async (sessions) => (await this.#gate('listPending'), this.inner.listPending(sessions));
  listAwaitingResume: QuestionStore['listAwaitingResume'] = async () => (await this.#gate('listAwaitingResume'), this.inner.listAwaitingResume());
  markResumed: QuestionStore['markResumed'] = async (rpcId) => (await this.#gate('markResumed'), this.inner.markResumed(rpcId));
  appendEvent: QuestionStore['appendEvent'] = async (event) => (await this.#gate('appendEvent'), this.inner.appendEvent(event));
  readEvents: QuestionStore['readEvents'] = async (sessionId, options) => (await this.#gate('readEvents'), this.inner.readEvents(sessionId, options));
}

/** Collects what `onResume` receives; `next()` waits for the next record. */
export function resumeRecorder(): { onResume: (record: QuestionRecord) => void; records: QuestionRecord[]; next(): Promise<QuestionRecord> } {
  const records: QuestionRecord[] = [];
  const waiting: ((record: QuestionRecord) => void)[] = [];
  let taken = 0;
  return {
    records,
    onResume(record) {
      records.push(record);
      waiting.shift()?.(record);
    },
    next() {
      const index = taken++;
      const ready = records[index];
      if (ready !== undefined) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`onResume was not called a ${index + 1}. time within 5 s`)), 5_000);
        waiting.push((record) => {
          clearTimeout(timer);
          resolve(record);
        });
      });
    },
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back
  body: any;
}

/** Call the host's HTTP API: `route` is below the host's path (`/questions`, …). Token as a Bearer header unless told otherwise. */
export async function api(
  host: WebSocketHost,
  method: string,
  route: string,
  options: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string>; path?: string } = {},
): Promise<ApiResponse> {
  const token = options.token === undefined ? TOKEN : options.token;
  const headers: Record<string, string> = { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...options.headers };
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const base = host.url.replace(/^ws:/, 'http:');
  const response = await fetch(`${base}${route}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/**
 * POST headers that announce `contentLength` bytes (or chunked when undefined), write `bytes` of
 * body, and resolve with the status as soon as the response head arrives.
 */
export function postHead(host: WebSocketHost, route: string, bytes: number, contentLength?: number): Promise<number> {
  const url = new URL(`${host.url.replace(/^ws:/, 'http:')}${route}`);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, ...(contentLength === undefined ? {} : { 'content-length': contentLength }) } },
      (res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        req.destroy();
      },
    );
    req.on('error', (error) => reject(error));
    req.write(Buffer.alloc(bytes, 0x61));
  });
}
