import { connectQuestions, type PendingQuestion, type QuestionClient, type QuestionResolvedEvent } from '@askseam/client';

// The element's hold on one question client: its subscriptions, and (for a client the element
// made from its own attributes) the duty to close it. Letting go is one list of undos, run in order.

/** What the element does when its client reports. */
export interface ClientListeners {
  requested(pending: PendingQuestion): void;
  /** A quorum approval's approvals changed (`pending.votes`). */
  votes(pending: PendingQuestion): void;
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
    client.on('votes', (pending) => listeners.votes(pending)),
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
    const hostUrl = hostUrlOf(url);
    return { client: connectQuestions({ url: hostUrl, ...(token === undefined ? {} : { token }), ...(link === undefined ? {} : { link }) }) };
  } catch (error) {
    // Thrown from a lifecycle callback, this would vanish into the console; the element shows it instead.
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The `url` attribute as the client's URL, whose scheme chooses the transport. An absolute URL is
 * taken as written: `ws(s)://` is the WebSocket host, `http(s)://` the HTTP + SSE handler. A path
 * (`/askseam`) is resolved against the page and means the WebSocket host on the page's own server
 * (http → ws, https → wss), as it always has, so a page served by the host need not know its port.
 */
function hostUrlOf(value: string): string {
  if (isAbsoluteUrl(value)) return value;
  const resolved = new URL(value, document.baseURI);
  if (resolved.protocol === 'http:') resolved.protocol = 'ws:';
  else if (resolved.protocol === 'https:') resolved.protocol = 'wss:';
  return resolved.href;
}

function isAbsoluteUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
