// The protocol with nothing but a WebSocket: answer every question with its first option.
// A UI in another language does the same with its own WebSocket library.
import { parseServerFrame } from '@askseam/protocol';
import { WebSocket } from 'ws';

// #region answer-with-first-options
export function answerWithFirstOptions(url: string, token: string, log = console.log): WebSocket {
  const socket = new WebSocket(`${url}?token=${encodeURIComponent(token)}`);
  socket.on('error', (error) => log(`socket error: ${error.message}`));
  socket.on('message', (data) => {
    const parsed = parseServerFrame(String(data));
    if (!parsed.ok) return log(`unreadable frame: ${parsed.error.message}`);
    const frame = parsed.value;
    switch (frame.type) {
      case 'hello':
        return log(`connected (protocol ${frame.protocol}), ${frame.pending?.length ?? 0} question(s) to replay`);
      case 'question/requested': {
        const answer = {
          answers: frame.questions.map((question) => ({ id: question.id, selected: question.options?.slice(0, 1).map((option) => option.label) ?? [] })),
        };
        const respond = { type: 'question/respond', id: `answer-${frame.rpcId}`, rpcId: frame.rpcId, result: { ok: true, value: { sessionId: frame.sessionId, answer } } };
        return socket.send(JSON.stringify(respond));
      }
// #endregion answer-with-first-options
      case 'receipt':
        // Accepted: our answer settled the question (no question/resolved follows for it, protocol 2).
        return log(frame.accepted ? `${frame.rpcId}: accepted` : `${frame.rpcId}: ${frame.reason} ${frame.detail ?? ''}`.trim());
      case 'question/resolved':
        // Settled some other way: another connection answered, or the asker gave up.
        return log(`${frame.rpcId}: ${frame.outcome}`);
      case 'error':
        return log(`the host could not read a frame: ${frame.code}`);
      case 'ping':
        return socket.send(JSON.stringify({ type: 'pong' }));
      case 'pong':
        return;
    }
  });
  return socket;
}
