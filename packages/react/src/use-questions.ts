import type { AcceptedReceipt, QuestionClient } from '@askseam/client';
import type { AskUserQuestionAnswer } from '@askseam/user-questions';
import { useCallback, useSyncExternalStore } from 'react';
import { emptyQuestionsSnapshot, questionsStoreOf, type QuestionsSnapshot } from './questions-store.js';

/** What `useQuestions` gives a component: the snapshot, and the person's two actions. */
export interface UseQuestionsResult extends QuestionsSnapshot {
  /** Send the person's answer; its receipt shows in `receipts` while it is sent and after. Rejects with the client's `QuestionClientError`. */
  answer(rpcId: string, answer: AskUserQuestionAnswer): Promise<AcceptedReceipt>;
  /** Dismiss the whole request (the agent's ask rejects `ASK_CANCELLED`); a receipt like `answer`. */
  cancel(rpcId: string): Promise<AcceptedReceipt>;
}

const noSubscription = (): (() => void) => () => undefined;
const emptySnapshot = (): QuestionsSnapshot => emptyQuestionsSnapshot;
const noClient = (): Promise<AcceptedReceipt> =>
  Promise.reject(new Error('useQuestions has no client yet: pass the client from connectQuestions() before answering.'));

/**
 * The pending requests of `client`, its connection state and the receipts of the person's answers,
 * kept current as the client reports. Pass `undefined` (or `null`) until there is a client, e.g.
 * while rendering on a server: the hook then shows nothing waiting and connection `none`, which is
 * also what the server snapshot says, so hydration matches.
 */
export function useQuestions(client: QuestionClient | null | undefined): UseQuestionsResult {
  const store = client ? questionsStoreOf(client) : undefined;
  const snapshot = useSyncExternalStore(store?.subscribe ?? noSubscription, store?.getSnapshot ?? emptySnapshot, emptySnapshot);
  const answer = useCallback((rpcId: string, value: AskUserQuestionAnswer) => (store ? store.answer(rpcId, value) : noClient()), [store]);
  const cancel = useCallback((rpcId: string) => (store ? store.cancel(rpcId) : noClient()), [store]);
  return { ...snapshot, answer, cancel };
}
