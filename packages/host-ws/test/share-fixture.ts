// What the share tests build on: several hosts with `holds: 'share'` in this process, on one
// MemoryQuestionStore and one MemoryQuestionBusHub (each node its own bus, which follows sessions).
import type { IncomingMessage } from 'node:http';
import { MemoryQuestionBusHub, MemoryQuestionStore, type ListAwaitingResumeOptions, type QuestionRecord, type SessionSelection } from '@askseam/store';
import type { Principal, WebSocketHostOptions } from '../src/index.js';
import { startHost, track, type TestHost } from './fixture.js';
import { RawClient } from './raw-client.js';

/** `?as=<session>`: a person who sees that one session, and says so (`sessionsExhaustive`). */
export function oneSessionPerson(req: IncomingMessage): Principal | undefined {
  const session = new URL(req.url ?? '/', 'http://host').searchParams.get('as');
  if (session === null) return undefined;
  return { id: `person-of-${session}`, canSee: (sessionId) => sessionId === session, sessions: [session], sessionsExhaustive: true };
}

/** The memory store, noting which sessions each listPending or listPendingIds asked for (what a session's load and a reconcile read). */
export class ListingStore extends MemoryQuestionStore {
  readonly listed: SessionSelection[] = [];
  /** The part each listAwaitingResume asked for (`'all'`: the whole list). */
  readonly awaitingRead: (number | 'all')[] = [];
  override listPending(sessions: SessionSelection): Promise<QuestionRecord[]> {
    this.listed.push(sessions === 'all' ? 'all' : [...sessions]);
    return super.listPending(sessions);
  }
  override listPendingIds(sessions: SessionSelection): Promise<string[]> {
    this.listed.push(sessions === 'all' ? 'all' : [...sessions]);
    return super.listPendingIds(sessions);
  }
  override listAwaitingResume(options?: ListAwaitingResumeOptions): Promise<QuestionRecord[]> {
    this.awaitingRead.push(options?.partition?.index ?? 'all');
    return super.listAwaitingResume(options);
  }
}

export function cluster(defaults: Partial<WebSocketHostOptions> = {}) {
  const hub = new MemoryQuestionBusHub();
  const store = new ListingStore();
  return {
    hub,
    store,
    node: (name: string, options: Partial<WebSocketHostOptions> = {}) =>
      startHost({ store, bus: hub.connect(name), holds: 'share', authenticate: oneSessionPerson, ...defaults, ...options }),
  };
}

/** A client of `node` who sees only `session`. */
export async function personOf(node: TestHost, session: string): Promise<RawClient> {
  return track(await RawClient.connect(`${node.host.url}?as=${session}`));
}

export async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Let every bus message and store read already on its way land (the memory bus delivers in microtasks). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

export const ids = (node: TestHost) => node.host.pending().map((entry) => entry.rpcId);

export async function pendingInStore(store: MemoryQuestionStore, count: number): Promise<string[]> {
  await waitFor(async () => (await store.listPending('all')).length === count, `${count} question(s) pending in the store`);
  return (await store.listPending('all')).map((record) => record.rpcId);
}

/** A fresh cluster's nodes `a` and `other` (started in that order), and one question asked on a by `sessionId`'s agent, saved. */
export async function askedOnA(other: string, sessionId = 'agent-a') {
  const made = cluster();
  const a = await made.node('a');
  const second = await made.node(other);
  const asking = a.ask(sessionId);
  const rpcId = (await pendingInStore(made.store, 1))[0]!;
  return { ...made, a, other: second, asking, rpcId };
}
