// The people side of every test here: @askseam/test-support's person at a real host (token auth,
// optionally on a SQLite file), with everything it opens closed by `cleanupPeople`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebSocketHost, WebSocketHostOptions } from '@askseam/host-ws';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { connectPerson, personAtHost, TEST_TOKEN, type Person, type PersonClient } from '@askseam/test-support';

export type { Person };

const cleanups: (() => unknown)[] = [];

/** Close every host, client and store, and remove temp dirs (call in afterEach). */
export async function cleanupPeople(): Promise<void> {
  for (const undo of cleanups.splice(0).reverse()) await undo();
}

/** A fresh SQLite file path in a temp dir removed by `cleanupPeople`. */
export function tempDbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-openai-agents-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'questions.db');
}

/** A SQLite store closed by `cleanupPeople` (after the host on it). */
export function openSqlite(file: string): SqliteQuestionStore {
  const store = new SqliteQuestionStore(file);
  cleanups.push(() => store.close());
  return store;
}

/** A host with one live agent (the session `agent-coder`, as agents-child.ts asks on), and a person connected to it. */
export async function startPerson(options: Pick<WebSocketHostOptions, 'store' | 'onResume'> = {}): Promise<Person> {
  const person = await personAtHost({ agentId: 'agent-coder', host: options });
  cleanups.push(() => person.close());
  return person;
}

/** A person's client connected to `host` (token TEST_TOKEN), closed by `cleanupPeople`. */
export async function connectPersonTo(host: Pick<WebSocketHost, 'url'>): Promise<PersonClient> {
  const person = await connectPerson({ url: host.url, token: TEST_TOKEN });
  cleanups.push(() => person.client.close());
  return person;
}
