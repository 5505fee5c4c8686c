import type { AcceptedReceipt, ClientStatus, PendingQuestion, QuestionClient, QuestionClientError } from '@askseam/client';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';

// One question client as an external store for React's useSyncExternalStore: a snapshot that
// stays the same object until something a component can see changed, a subscribe that listens to
// the client only while someone renders from it, and the person's answer / cancel calls with a
// receipt each. No React in here, so the store is tested against a real host without a DOM.

/** The connection as a component shows it: the client's status, or `none` before there is a client (and on a server). */
export type QuestionsConnection = ClientStatus | 'none';

/** What happened to the person's last answer or cancel of one request, until the request leaves. */
export type QuestionReceipt =
  | { readonly rpcId: string; readonly action: 'answer' | 'cancel'; readonly state: 'sending' }
  | { readonly rpcId: string; readonly action: 'answer' | 'cancel'; readonly state: 'accepted' }
  | { readonly rpcId: string; readonly action: 'answer' | 'cancel'; readonly state: 'refused'; readonly error: QuestionClientError | Error };

export interface QuestionsSnapshot {
  readonly connection: QuestionsConnection;
  /** The requests waiting for the person, oldest first. */
  readonly pending: readonly PendingQuestion[];
  /** By rpcId: the receipt of the person's last answer or cancel of a request still pending. */
  readonly receipts: ReadonlyMap<string, QuestionReceipt>;
}

/** Nothing to show: before a client exists, and always on a server (so hydration matches). */
export const emptyQuestionsSnapshot: QuestionsSnapshot = Object.freeze({
  connection: 'none',
  pending: Object.freeze([]) as readonly PendingQuestion[],
  receipts: new Map<string, QuestionReceipt>(),
});

export interface QuestionsStore {
  subscribe(onChange: () => void): () => void;
  getSnapshot(): QuestionsSnapshot;
  /** `client.answer`, with a receipt in the snapshot while it is sent and after. Rejects as the client does. */
  answer(rpcId: string, answer: AskUserQuestionAnswer): Promise<AcceptedReceipt>;
  /** `client.cancel`, with a receipt like `answer`. */
  cancel(rpcId: string): Promise<AcceptedReceipt>;
}

// One store per client, so every component reading the same client shares its receipts.
const stores = new WeakMap<QuestionClient, QuestionsStore>();

export function questionsStoreOf(client: QuestionClient): QuestionsStore {
  let store = stores.get(client);
  if (!store) {
    store = createQuestionsStore(client);
    stores.set(client, store);
  }
  return store;
}

function createQuestionsStore(client: QuestionClient): QuestionsStore {
  const subscribers = new Set<() => void>();
  let stopListening: (() => void) | undefined;
  const receipts = new Map<string, QuestionReceipt>();
  let snapshot: QuestionsSnapshot = emptyQuestionsSnapshot;

  const notify = (): void => {
    for (const subscriber of [...subscribers]) subscriber();
  };

  const track = async (rpcId: string, action: 'answer' | 'cancel', send: () => Promise<AcceptedReceipt>): Promise<AcceptedReceipt> => {
    const sending: QuestionReceipt = { rpcId, action, state: 'sending' };
    receipts.set(rpcId, sending);
    notify();
    try {
      const accepted = await send();
      // Accepted while the resolved frame is still on its way; once it came, the receipt is done.
      if (receipts.get(rpcId) === sending && client.pending.has(rpcId)) receipts.set(rpcId, { rpcId, action, state: 'accepted' });
      else if (!client.pending.has(rpcId)) receipts.delete(rpcId);
      return accepted;
    } catch (error) {
      // The client rejects with a QuestionClientError (`not-pending`, `invalid-answer`, …).
      const refused = error instanceof Error ? error : new Error(String(error));
      if (receipts.get(rpcId) === sending) receipts.set(rpcId, { rpcId, action, state: 'refused', error: refused });
      throw error;
    } finally {
      notify();
    }
  };

  return {
    subscribe(onChange) {
      subscribers.add(onChange);
      if (!stopListening) {
        const undos = [client.on('requested', notify), client.on('resolved', notify), client.on('status', notify)];
        stopListening = () => {
          for (const undo of undos.splice(0)) undo();
        };
      }
      return () => {
        subscribers.delete(onChange);
        if (subscribers.size === 0) {
          stopListening?.();
          stopListening = undefined;
        }
      };
    },
    getSnapshot() {
      // Read from the client each time, but hand back the previous object while nothing changed:
      // useSyncExternalStore re-renders on a new object and loops on one made per call.
      const pending = [...client.pending.values()].sort((a, b) => (a.askedAt < b.askedAt ? -1 : a.askedAt > b.askedAt ? 1 : 0));
      // A receipt lives as long as its request waits; the resolved frame ends both.
      for (const rpcId of receipts.keys()) if (!client.pending.has(rpcId)) receipts.delete(rpcId);
      const next: QuestionsSnapshot = { connection: client.status, pending, receipts: new Map(receipts) };
      if (!sameSnapshot(snapshot, next)) snapshot = next;
      return snapshot;
    },
    answer: (rpcId, answer) => track(rpcId, 'answer', () => client.answer(rpcId, answer)),
    cancel: (rpcId) => track(rpcId, 'cancel', () => client.cancel(rpcId)),
  };
}

function sameSnapshot(a: QuestionsSnapshot, b: QuestionsSnapshot): boolean {
  if (a === emptyQuestionsSnapshot) return false;
  if (a.connection !== b.connection || a.pending.length !== b.pending.length || a.receipts.size !== b.receipts.size) return false;
  if (a.pending.some((each, index) => each !== b.pending[index])) return false;
  for (const [rpcId, receipt] of a.receipts) if (b.receipts.get(rpcId) !== receipt) return false;
  return true;
}
