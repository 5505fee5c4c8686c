import { QuestionStoreError } from '@askseam/store';
import { isUnavailableError, unavailable, wasNotSent } from './connection.js';
import { corrupt } from './decode.js';
import { corruptReplyTag, publishRefusedReplyTag } from './scripts.js';

/** What went wrong in one step against Redis, as the store's error codes (anything else is passed on as it is). */
export function storeError(error: unknown, { action, writes, rpcId, target }: { action: string; writes: boolean; rpcId: string | undefined; target: string }): unknown {
  if (QuestionStoreError.isInstance(error)) return error;
  if (error instanceof Error && error.name === 'ReplyError' && (error.message.startsWith(corruptReplyTag) || error.message.startsWith('WRONGTYPE'))) {
    return corrupt(rpcId === undefined ? `data read to ${action}` : `question "${rpcId}"`, target, error);
  }
  if (error instanceof Error && error.name === 'ReplyError' && error.message.startsWith(publishRefusedReplyTag)) {
    const reason = error.message.slice(publishRefusedReplyTag.length).trim();
    return new QuestionStoreError(
      'NOT_PERMITTED',
      `Could not ${action} on Redis at ${target}: Redis refused to publish its bus announcement (${reason}), so nothing was written. Give the store's ACL user the right to publish on the bus's channels, or give the store and the bus different clients so the host publishes through the bus.`,
      { cause: error },
    );
  }
  // OOM refuses a script at its first write, so nothing of it was written (and it announces only after its last).
  if (error instanceof Error && error.name === 'ReplyError' && error.message.startsWith('OOM ')) {
    return new QuestionStoreError(
      'STORE_FULL',
      `Could not ${action} on Redis at ${target}: Redis is out of memory (${error.message.split('\n')[0]}), so nothing was written and nothing announced. Raise maxmemory, free memory or choose an eviction policy that spares the store's keys, then retry.`,
      { cause: error },
    );
  }
  if (isUnavailableError(error)) {
    // A refusal reply (LOADING, READONLY, CLUSTERDOWN…) means the command did not run; only a dropped connection leaves it unknown.
    const sent = writes && !wasNotSent(error) && (error as Error).name !== 'ReplyError';
    return unavailable(target, `could not ${action}: ${(error as Error).message}`, { cause: error, sent });
  }
  return error;
}
