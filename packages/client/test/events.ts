import type { ClientStatus, QuestionClient, QuestionClientEvents } from '../src/index.js';

/** The next `event` the client emits that satisfies `accept`. */
export function nextEvent<K extends keyof QuestionClientEvents>(
  client: QuestionClient,
  event: K,
  accept: (value: QuestionClientEvents[K]) => boolean = () => true,
): Promise<QuestionClientEvents[K]> {
  return new Promise((resolve) => {
    // The overloads of `on` cannot take a generic event name; the listener type follows from K.
    const off = client.on(event as 'status', ((value: QuestionClientEvents[K]) => {
      if (!accept(value)) return;
      off();
      resolve(value);
    }) as never);
  });
}

/** Resolves when the client reports `status` (at once if it already does). */
export function statusReached(client: QuestionClient, status: ClientStatus): Promise<void> {
  if (client.status === status) return Promise.resolve();
  return nextEvent(client, 'status', (value) => value === status).then(() => undefined);
}

/** Every status the client reports from now on. */
export function recordStatuses(client: QuestionClient): ClientStatus[] {
  const statuses: ClientStatus[] = [];
  client.on('status', (status) => statuses.push(status));
  return statuses;
}

/** Every value of `event` the client emits from now on. */
export function record<K extends keyof QuestionClientEvents>(client: QuestionClient, event: K): QuestionClientEvents[K][] {
  const values: QuestionClientEvents[K][] = [];
  client.on(event as 'status', ((value: QuestionClientEvents[K]) => values.push(value)) as never);
  return values;
}
