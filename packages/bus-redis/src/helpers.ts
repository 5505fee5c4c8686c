import type { Cluster, Redis } from 'ioredis';
import { QuestionStoreError } from '@askseam/store';
import type { RedisQuestionBusLogger } from './redis-bus.js';

type BusClient = Redis | Cluster;
const noop = () => {};

/**
 * The first bytes of every message this node publishes: `publish` sends the checked message, whose
 * keys come out in schema order (`type`, then `from`). Any other text (another node's, or one written
 * by hand) takes the full parse, and a message of ours spelled otherwise is still dropped after it.
 */
export function ownMessageStarts(nodeId: string): string[] {
  return ['asked', 'settled'].map((type) => `${JSON.stringify({ type, from: nodeId }).slice(0, -1)},`);
}

export function aliveKey(keyPrefix: string, nodeId: string): string {
  return `${keyPrefix}alive:${nodeId}`;
}

export function closedError(operation: string): QuestionStoreError {
  return new QuestionStoreError('STORE_CLOSED', `${operation}: this RedisQuestionBus was closed.`);
}

/**
 * Whether `client` is ready to take a command, connecting a lazy client first. A connection attempt
 * in progress is waited for (it ends quickly either way: ready, refused, or ioredis' connectTimeout);
 * a client between reconnect attempts is not ready.
 */
export async function settledConnecting(client: BusClient): Promise<boolean> {
  if (client.status === 'wait') client.connect().catch(noop);
  if (client.status !== 'connecting' && client.status !== 'connect') return client.status === 'ready';
  await new Promise<void>((resolve) => {
    const done = () => {
      client.off('ready', done);
      client.off('close', done);
      client.off('end', done);
      resolve();
    };
    client.once('ready', done);
    client.once('close', done);
    client.once('end', done);
  });
  // Read again: the status changed while we waited (TypeScript still narrows it to 'connecting').
  return (client.status as string) === 'ready';
}

/** Close a connection: politely (QUIT, after UNSUBSCRIBE for a subscriber) when it is up, at once otherwise. */
export async function quit(client: BusClient, { subscriber }: { subscriber: boolean }): Promise<void> {
  if (client.status === 'ready') {
    try {
      if (subscriber) await client.unsubscribe();
      await client.quit();
      return;
    } catch {
      // It dropped while closing: nothing left to say goodbye to.
    }
  }
  client.disconnect();
}

export function safeLogger(logger: RedisQuestionBusLogger): RedisQuestionBusLogger {
  const guard =
    (level: keyof RedisQuestionBusLogger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      try {
        logger[level](message, fields);
      } catch {
        // Nowhere left to report a failing logger to.
      }
    };
  return { warn: guard('warn'), error: guard('error') };
}
