import { QuestionStoreError, type BusAnnouncement, type BusSealFacts, type StoreWriteOptions } from '@askseam/store';
import { bucketTag } from './keys.js';

/**
 * A bus announcement a `RedisQuestionBus` that can follow sessions hands out: besides `channel`
 * (heard by every node that follows everything, or nothing yet), the store also publishes the
 * message on the session's channel (`SPUBLISH`, in the same hash slot as the session's keys) and,
 * for a `settled`, on the asking node's channel (`record.askedOn`).
 */
export interface RedisBusAnnouncement extends BusAnnouncement {
  readonly routes?: {
    /** The bus's key prefix: the session channel is `sessionChannel(sessionPrefix, sessionId)`. */
    readonly sessionPrefix: string;
    /** The asking node's channel is this followed by `record.askedOn`. */
    readonly nodePrefix: string;
  };
}

/**
 * A write's announcement as the scripts' announcement block (before, after, channel, the bucket's
 * session channel prefix or '', the node channel prefix or ''), or none; checked before anything is
 * sent. With `facts` (what the write puts in the message), a sealing bus's seal goes after `after`.
 */
export function announcementArgs(options: StoreWriteOptions | undefined, bucket: number, facts?: BusSealFacts): string[] {
  const announce = options?.announce as RedisBusAnnouncement | undefined;
  if (announce === undefined) return [];
  const { channel, before, routes, seal } = announce;
  let { after } = announce;
  if (typeof channel !== 'string' || channel === '' || typeof before !== 'string' || typeof after !== 'string' || (seal !== undefined && typeof seal !== 'function')) {
    throw new QuestionStoreError('INVALID_INPUT', 'options.announce must be { channel, before, after, seal? } with a non-empty channel, string texts and seal a function (from a bus\'s announcement()); nothing was written.');
  }
  if (seal !== undefined && facts !== undefined) {
    const sealText: unknown = seal.call(announce, facts);
    if (typeof sealText !== 'string') throw new QuestionStoreError('INVALID_INPUT', 'options.announce.seal must return a string; nothing was written.');
    after += sealText;
  }
  if (routes === undefined) return [before, after, channel, '', ''];
  const { sessionPrefix, nodePrefix } = routes;
  if (typeof sessionPrefix !== 'string' || /[{}]/.test(sessionPrefix) || typeof nodePrefix !== 'string' || nodePrefix === '') {
    throw new QuestionStoreError('INVALID_INPUT', 'options.announce.routes must be { sessionPrefix, nodePrefix }: strings, the session prefix without { or }, the node prefix not empty; nothing was written.');
  }
  return [before, after, channel, `${bucketTag(sessionPrefix, bucket)}news:`, nodePrefix];
}
