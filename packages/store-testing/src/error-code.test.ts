import { QuestionStoreError } from '@askseam/store';
import { describe, expect, it } from 'vitest';
import { questionStoreErrorCode } from './error-code.js';

describe('questionStoreErrorCode', () => {
  it('names the code a store rejected with', async () => {
    const rejected = Promise.reject(new QuestionStoreError('DUPLICATE_RPC_ID', 'rpc-1 is already saved.'));
    expect(await questionStoreErrorCode(rejected)).toBe('DUPLICATE_RPC_ID');
  });

  it("says 'no error' when the promise resolves", async () => {
    expect(await questionStoreErrorCode(Promise.resolve('saved'))).toBe('no error');
  });

  it('rethrows anything that is not a store error, so a TypeError never passes as an expected code', async () => {
    const broken = Promise.reject(new TypeError('store.save is not a function'));
    await expect(questionStoreErrorCode(broken)).rejects.toThrow(TypeError);
  });
});
