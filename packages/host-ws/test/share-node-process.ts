// A host node in a child process (test/redis-node-child.ts) holding its share: send it commands
// (asks, pending), connect people who see one session each, and wait for what it reports.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { QuestionRecord } from '@askseam/store';
import { expect } from 'vitest';
import { RawClient } from './raw-client.js';
import { ChildNode } from './child-node.js';

export type Settled = { id: string; ok: boolean; answer?: unknown; code?: string; message?: string };
export type Line =
  | { ready: { url: string; nodeId: string } }
  | { settled: Settled }
  | { detached: { id: string; rpcId?: string; code?: string } }
  | { pending: { id: string; rpcIds: string[] } }
  | { resumed: QuestionRecord };

/** One host node in a child process: send it commands, wait for what it reports. */
export class Node extends ChildNode<Line> {
  url = '';
  #asked = 0;

  constructor(
    nodeId: string,
    child: ChildProcess,
    /** The token of the node's HTTP API. */
    readonly token: string,
    /** Told of every client connected, so that the test closes them. */
    readonly track: (client: RawClient) => void,
  ) {
    super(nodeId, child, 30_000);
  }

  /** A blocking ask of `sessionId`'s agent on this node; returns the ask's id. */
  ask(sessionId: string): string {
    const id = `${this.nodeId}-ask-${(this.#asked += 1)}`;
    this.send({ cmd: 'ask', id, sessionId });
    return id;
  }

  async askDetached(sessionId: string): Promise<string> {
    const id = `${this.nodeId}-detached-${(this.#asked += 1)}`;
    this.send({ cmd: 'askDetached', id, sessionId });
    const reply = await this.wait((line) => ('detached' in line && line.detached.id === id ? line.detached : undefined), `detached ask ${id}`);
    expect(reply.rpcId, JSON.stringify(reply)).toEqual(expect.any(String));
    return reply.rpcId!;
  }

  settled(id: string): Promise<Settled> {
    return this.wait((line) => ('settled' in line && line.settled.id === id ? line.settled : undefined), `settlement of ask ${id}`);
  }

  /** How many times each ask was settled (a waiting asker is resolved exactly once, or the line shows twice). */
  settlements(id: string): number {
    return this.lines.filter((line) => 'settled' in line && line.settled.id === id).length;
  }

  resumedIds(): string[] {
    return this.lines.flatMap((line) => ('resumed' in line ? [line.resumed.rpcId] : []));
  }

  /** The rpcIds this node holds now (`host.pending()`: in share mode, only its share). */
  async pending(): Promise<string[]> {
    const id = randomUUID();
    this.send({ cmd: 'pending', id });
    const reply = await this.wait((line) => ('pending' in line && line.pending.id === id ? line.pending : undefined), 'pending list');
    return [...reply.rpcIds].sort();
  }

  /** A person who sees only `sessionId`, connected to this node. */
  async personOf(sessionId: string): Promise<RawClient> {
    const client = await RawClient.connect(`${this.url}?as=${encodeURIComponent(sessionId)}`);
    this.track(client);
    await client.next('hello', () => true, 30_000);
    return client;
  }

  async answerOverHttp(rpcId: string, sessionId: string, answer: unknown): Promise<{ status: number; body: { accepted?: boolean; reason?: string; detail?: string } }> {
    const response = await fetch(`${this.url.replace(/^ws:/, 'http:')}/questions/${rpcId}/answer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, answer }),
    });
    return { status: response.status, body: (await response.json()) as { accepted?: boolean; reason?: string } };
  }
}
