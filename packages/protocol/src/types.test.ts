import { describe, expectTypeOf, it } from 'vitest';
import type { AskUserQuestionItem, AskUserQuestionUrgency } from '@askseam/user-questions';
import {
  parseClientFrame,
  parseFrame,
  parseServerFrame,
  type ClientFrame,
  type FrameErrorCode,
  type Parsed,
  type QuestionRequestedFrame,
  type ReceiptFrame,
  type RespondResult,
  type ServerFrame,
} from './index.js';

describe('frame types', () => {
  it('the server frame union covers exactly the server frame types', () => {
    expectTypeOf<ServerFrame['type']>().toEqualTypeOf<
      'hello' | 'question/requested' | 'question/resolved' | 'receipt' | 'error' | 'ping' | 'pong'
    >();
  });

  it('the client frame union covers exactly the client frame types', () => {
    expectTypeOf<ClientFrame['type']>().toEqualTypeOf<'question/respond' | 'ping' | 'pong'>();
  });

  it('narrows a server frame by its type', () => {
    const frame = {} as ServerFrame;
    if (frame.type === 'question/requested') {
      expectTypeOf(frame).toEqualTypeOf<QuestionRequestedFrame>();
      expectTypeOf(frame.questions).toEqualTypeOf<AskUserQuestionItem[]>();
      expectTypeOf(frame.urgency).toEqualTypeOf<AskUserQuestionUrgency | undefined>();
    }
    if (frame.type === 'question/resolved') expectTypeOf(frame.outcome).toEqualTypeOf<'answered' | 'cancelled'>();
  });

  it('a receipt has a reason only when it was not accepted', () => {
    const receipt = {} as ReceiptFrame;
    if (receipt.accepted) expectTypeOf(receipt).not.toHaveProperty('reason');
    else expectTypeOf(receipt.reason).toEqualTypeOf<'not-pending' | 'bad-response' | 'forbidden'>();
  });

  it('a respond result is an answer for a session or an error with a code', () => {
    const result = {} as RespondResult;
    if (result.ok) expectTypeOf(result.value.sessionId).toEqualTypeOf<string>();
    else expectTypeOf(result.error).toEqualTypeOf<{ code: string; message?: string | undefined }>();
  });

  it('the parsers return a Parsed of their direction', () => {
    expectTypeOf(parseClientFrame).returns.toEqualTypeOf<Parsed<ClientFrame>>();
    expectTypeOf(parseServerFrame).returns.toEqualTypeOf<Parsed<ServerFrame>>();
    expectTypeOf(parseFrame('', 'from-client')).toEqualTypeOf<Parsed<ClientFrame>>();
    expectTypeOf(parseFrame('', 'from-server')).toEqualTypeOf<Parsed<ServerFrame>>();
    expectTypeOf(parseServerFrame).parameter(0).toEqualTypeOf<string | ArrayBuffer | ArrayBufferView>();
  });

  it('a failed parse carries a typed error code', () => {
    expectTypeOf<Extract<Parsed<ServerFrame>, { ok: false }>['error']>().toEqualTypeOf<{ code: FrameErrorCode; message: string }>();
    expectTypeOf<Extract<Parsed<ServerFrame>, { ok: true }>['value']>().toEqualTypeOf<ServerFrame>();
    expectTypeOf<FrameErrorCode>().toEqualTypeOf<'malformed-json' | 'unknown-type' | 'invalid-frame' | 'binary-frame'>();
  });
});
