import type { NewQuestionRecord } from '@askseam/store';

let counter = 0;

/** A valid pending record with a fresh rpcId; `overrides` replace fields. */
export function sampleQuestionRecord(overrides: Partial<NewQuestionRecord> = {}): NewQuestionRecord {
  counter += 1;
  return {
    rpcId: `rpc-${counter}-${Math.random().toString(36).slice(2)}`,
    sessionId: 'session-a',
    askedBy: 'agent-a',
    askedAt: '2026-01-02T03:04:05.000Z',
    questions: [{ id: 'deploy', question: 'Deploy v1.2.3 to production?', options: [{ label: 'Yes' }, { label: 'No' }] }],
    mode: 'blocking',
    ...overrides,
  };
}
