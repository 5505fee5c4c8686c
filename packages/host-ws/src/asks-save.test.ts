import { MemoryQuestionStore, QuestionStoreError } from '@askseam/store';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, colourQuestion, redAnswer, startHost } from '../test/fixture.js';
import { RawClient } from '../test/raw-client.js';

afterEach(cleanup);

/** The real in-memory store, whose event log of one session is damaged: a save with its event is refused as corrupt. */
class DamagedEventLogStore extends MemoryQuestionStore {
  override async saveWithEvent(): Promise<void> {
    throw new QuestionStoreError('CORRUPT_STORE', 'The event stream of session "agent-a" is not an askseam event log.');
  }
}

describe('saving a question', () => {
  it('still asks the question when its session\'s event log is damaged, saving the question alone', async () => {
    const store = new DamagedEventLogStore();
    const test = await startHost({ store });
    const watcher: RawClient = await test.connect();
    await watcher.next('hello');
    const asking = test.ask('agent-a', [colourQuestion]);
    const requested = await watcher.next('question/requested');
    expect(await store.get(requested.rpcId)).toMatchObject({ rpcId: requested.rpcId });
    // Its asked event went the old way (the memory store's own append works).
    await expect.poll(async () => (await store.readEvents('agent-a')).map((event) => event.type)).toContain('human_input_requested');
    expect(await watcher.answer(requested.rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
  });
});
