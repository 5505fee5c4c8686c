import {
  parseClientFrame,
  parseServerFrame,
  PROTOCOL_VERSION,
  respondResultSchema,
  type FrameData,
  type ReceiptFrame,
  type RespondResult,
  type ServerFrame,
} from '@askseam/protocol';

/** Server side: the frame to send back for one incoming WebSocket message, if any. */
export function replyTo(data: FrameData, settle: (rpcId: string, result: RespondResult) => ReceiptFrame): ServerFrame | undefined {
  const parsed = parseClientFrame(data); // never throws
  if (!parsed.ok) return { type: 'error', code: parsed.error.code, message: parsed.error.message };
  const frame = parsed.value;
  switch (frame.type) {
    case 'ping':
      return { type: 'pong' };
    case 'pong':
      return undefined;
    case 'question/respond': {
      // `result` is checked here, not by parseClientFrame: a wrong shape earns a receipt, not an error frame.
      const result = respondResultSchema.safeParse(frame.result);
      if (!result.success) {
        return { type: 'receipt', id: frame.id, rpcId: frame.rpcId, accepted: false, reason: 'bad-response', detail: 'result must be { ok, value } or { ok, error }' };
      }
      return settle(frame.rpcId, result.data);
    }
  }
}

/** Client side: one line per frame from the server, for a log or a terminal UI. */
export function describeServerFrame(data: FrameData): string {
  const parsed = parseServerFrame(data);
  if (!parsed.ok) return `unreadable frame (${parsed.error.code}): ${parsed.error.message}`;
  const frame = parsed.value;
  switch (frame.type) {
    case 'hello':
      return frame.protocol === PROTOCOL_VERSION ? 'connected' : `host speaks protocol ${frame.protocol}, we speak ${PROTOCOL_VERSION}`;
    case 'question/requested':
      return `${frame.sessionId} asks ${frame.questions.length} question(s) [${frame.rpcId}]`;
    case 'question/resolved':
      return `[${frame.rpcId}] ${frame.outcome}`;
    case 'receipt':
      return frame.accepted ? `[${frame.rpcId}] accepted` : `[${frame.rpcId}] refused: ${frame.reason}${frame.detail ? ` (${frame.detail})` : ''}`;
    case 'error':
      return `host could not read our frame: ${frame.message}`;
    case 'ping':
    case 'pong':
      return frame.type;
  }
}
