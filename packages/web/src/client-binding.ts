import { connectQuestions, type PendingQuestion, type QuestionClient, type QuestionResolvedEvent } from '@askseam/client';

// The element's hold on one question client: its subscriptions, and (for a client the element
// made from its own attributes) the duty to close it. Letting go is one list of undos, run in order.

/** What the element does when its client reports. */
export interface ClientListeners {
  requested(pending: PendingQuestion): void;
  resolved(event: QuestionResolvedEvent): void;
  status(): void;
}

export interface ClientBinding {
  readonly client: QuestionClient;
  /** Stop listening; close the client too when the element made it. Safe to call twice. */
  release(): void;
}

/**
 * Listen to `client`. `owned`: the element made it from `url`/`token`, so releasing closes it; a
 * client the page gave is the page's to close.
 */
export function bindClient(client: QuestionClient, { owned }: { owned: boolean }, listeners: ClientListeners): ClientBinding {
  const undos = [
    client.on('requested', (pending) => listeners.requested(pending)),
    client.on('resolved', (event) => listeners.resolved(event)),
    client.on('status', () => listeners.status()),
  ];
  // Last: nothing of ours should hear the client's own farewell events.
  if (owned) undos.push(() => client.close());
  return {
    client,
    release() {
      for (const undo of undos.splice(0)) undo();
    },
  };
}

/** A client made from the `url` and `token` (or `link`) attributes, or why the url cannot be used. */
export type AttributeClient = { client: QuestionClient } | { problem: string };

export function clientFromAttributes(url: string, token: string | undefined, link?: string): AttributeClient {
  try {
    const wsUrl = webSocketUrl(url);
    return { client: connectQuestions({ url: wsUrl, ...(token === undefined ? {} : { token }), ...(link === undefined ? {} : { link }) }) };
  } catch (error) {
    // Thrown from a lifecycle callback, this would vanish into the console; the element shows it instead.
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The `url` attribute as a WebSocket URL. A path (`/askseam`) or an http(s) URL is resolved against
 * the page, so a page served by the host's own server need not know its port: http → ws, https → wss.
 */
function webSocketUrl(value: string): string {
  const resolved = new URL(value, document.baseURI);
  if (resolved.protocol === 'http:') resolved.protocol = 'ws:';
  else if (resolved.protocol === 'https:') resolved.protocol = 'wss:';
  return resolved.href;
}
