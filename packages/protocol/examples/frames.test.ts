import { describe, expect, it } from 'vitest';
import type { ReceiptFrame, RespondResult } from '@askseam/protocol';
import { describeServerFrame, replyTo } from './frames.js';

const accept = (rpcId: string, _result: RespondResult): ReceiptFrame => ({ type: 'receipt', rpcId, accepted: true });

describe('the frames example, server side', () => {
  it('answers a ping with a pong and ignores a pong', () => {
    expect(replyTo('{"type":"ping"}', accept)).toEqual({ type: 'pong' });
    expect(replyTo('{"type":"pong"}', accept)).toBeUndefined();
  });

  it('hands a well-formed respond result to settle and returns its receipt', () => {
    const results: RespondResult[] = [];
    const frame = { type: 'question/respond', rpcId: 'rpc-1', result: { ok: false, error: { code: 'cancelled' } } };
    const receipt = replyTo(JSON.stringify(frame), (rpcId, result) => {
      results.push(result);
      return accept(rpcId, result);
    });
    expect(receipt).toEqual({ type: 'receipt', rpcId: 'rpc-1', accepted: true });
    expect(results).toEqual([{ ok: false, error: { code: 'cancelled' } }]);
  });

  it('refuses a respond result of the wrong shape with a bad-response receipt', () => {
    const frame = { type: 'question/respond', id: 'send-1', rpcId: 'rpc-1', result: { ok: true } };
    expect(replyTo(JSON.stringify(frame), accept)).toMatchObject({ type: 'receipt', id: 'send-1', accepted: false, reason: 'bad-response' });
  });

  it('answers garbage with an error frame instead of throwing', () => {
    expect(replyTo('not json', accept)).toEqual({ type: 'error', code: 'malformed-json', message: 'The frame is not valid JSON.' });
    expect(replyTo(new Uint8Array([0xff]), accept)).toMatchObject({ type: 'error', code: 'malformed-json' });
  });
});

describe('the frames example, client side', () => {
  it('describes every kind of server frame', () => {
    expect(describeServerFrame('{"type":"hello","protocol":2}')).toBe('connected');
    expect(describeServerFrame('{"type":"hello","protocol":1}')).toBe('host speaks protocol 1, we speak 2');
    expect(
      describeServerFrame(JSON.stringify({ type: 'question/requested', rpcId: 'r1', sessionId: 'main', askedAt: 'now', questions: [{ id: 'a', question: 'A?' }] })),
    ).toBe('main asks 1 question(s) [r1]');
    expect(describeServerFrame('{"type":"question/resolved","rpcId":"r1","sessionId":"main","outcome":"cancelled"}')).toBe('[r1] cancelled');
    expect(describeServerFrame('{"type":"receipt","rpcId":"r1","accepted":true}')).toBe('[r1] accepted');
    expect(describeServerFrame('{"type":"receipt","rpcId":"r1","accepted":false,"reason":"bad-response","detail":"wrong id"}')).toBe(
      '[r1] refused: bad-response (wrong id)',
    );
    expect(describeServerFrame('{"type":"error","code":"unknown-type","message":"Unknown frame type"}')).toBe('host could not read our frame: Unknown frame type');
    expect(describeServerFrame('{"type":"ping"}')).toBe('ping');
  });

  it('describes an unreadable frame with its error code', () => {
    expect(describeServerFrame('{"type":"question/ask"}')).toBe('unreadable frame (unknown-type): Unknown frame type "question/ask".');
  });
});
