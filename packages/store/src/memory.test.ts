import { describe, expect, it } from 'vitest';
import { MemoryQuestionStore } from './memory.js';
import { describeQuestionStoreContract, sampleQuestionRecord } from './testing/index.js';

describeQuestionStoreContract('MemoryQuestionStore', () => new MemoryQuestionStore());

describe('MemoryQuestionStore', () => {
  it('keeps its questions for as long as the object lives, across users of the same instance', async () => {
    const store = new MemoryQuestionStore();
    const record = sampleQuestionRecord();
    await store.save(record);
    const sameStoreLater: MemoryQuestionStore = store;
    expect(await sameStoreLater.listPending('all')).toEqual([record]);
  });
});
