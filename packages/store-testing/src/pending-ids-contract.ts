// The contract of the optional `QuestionStore.listPendingIds` (what a host's reconcile reads),
// registered by describeQuestionStoreContract for a store that has it: it must agree with
// listPending, record for record and in the same order, whatever was saved, settled or voted on.
import { expect, it, type TestContext } from 'vitest';
import type { QuestionStore, SessionSelection } from '@askseam/store';
import { sampleQuestionRecord } from './sample.js';

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

/** Register the listPendingIds tests; `fresh` makes an empty store for one test. */
export function describePendingIdsContract(fresh: () => Promise<QuestionStore>): void {
  async function storeWithIds(context: TestContext): Promise<QuestionStore & Required<Pick<QuestionStore, 'listPendingIds'>>> {
    const store = await fresh();
    if (store.listPendingIds === undefined) context.skip();
    return store as QuestionStore & Required<Pick<QuestionStore, 'listPendingIds'>>;
  }

  /** listPendingIds must list exactly what listPending lists, in the same order. */
  async function agree(store: QuestionStore & Required<Pick<QuestionStore, 'listPendingIds'>>, selection: SessionSelection): Promise<string[]> {
    const ids = await store.listPendingIds(selection);
    expect(ids).toEqual((await store.listPending(selection)).map((record) => record.rpcId));
    return ids;
  }

  it('lists the rpcIds listPending lists, in save order, for some sessions and for all (when the store has it)', async (context) => {
    const store = await storeWithIds(context);
    const records = ['b', 'a', 'c', 'b', 'a', 'c', 'a'].map((sessionId) => sampleQuestionRecord({ sessionId }));
    for (const record of records) await store.save(record);
    await store.claim(records[4]!.rpcId, 'cancelled');
    await store.claim(records[5]!.rpcId, 'answered', yes);
    expect(await agree(store, ['a', 'b'])).toEqual([records[0]!, records[1]!, records[3]!, records[6]!].map((record) => record.rpcId));
    expect(await agree(store, new Set(['c']))).toEqual([records[2]!.rpcId]);
    expect(await agree(store, 'all')).toEqual([0, 1, 2, 3, 6].map((index) => records[index]!.rpcId));
    expect(await agree(store, ['unknown'])).toEqual([]);
    expect(await agree(store, [])).toEqual([]);
  });

  it('drops a question as soon as it is settled and lists one as soon as it is saved (when the store has it)', async (context) => {
    const store = await storeWithIds(context);
    const first = sampleQuestionRecord({ sessionId: 's' });
    await store.save(first);
    expect(await agree(store, ['s'])).toEqual([first.rpcId]);
    await store.claim(first.rpcId, 'answered', yes);
    await store.markResumed(first.rpcId);
    expect(await agree(store, ['s'])).toEqual([]);
    const second = sampleQuestionRecord({ sessionId: 's' });
    await store.save(second);
    expect(await agree(store, 'all')).toEqual([second.rpcId]);
  });
}
