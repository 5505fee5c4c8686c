import { QuestionStoreError, type QuestionStoreErrorCode } from '@askseam/store';

/**
 * The `QuestionStoreError` code `promise` rejects with, or `'no error'` when it resolves; any other
 * rejection is rethrown (a test that expects a store error must not pass on a TypeError).
 */
export async function questionStoreErrorCode(promise: Promise<unknown>): Promise<QuestionStoreErrorCode | 'no error'> {
  try {
    await promise;
  } catch (error) {
    if (QuestionStoreError.isInstance(error)) return error.code;
    throw error;
  }
  return 'no error';
}
