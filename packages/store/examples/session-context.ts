// A session's event log as context for the agent that resumes it (seed 002's thread events): one
// line per event, and the cursor to read only what is new next time.
import type { QuestionEvent, QuestionStore } from '@askseam/store';

// #region session-context
export async function sessionContext(store: QuestionStore, sessionId: string, after = 0): Promise<{ lines: string[]; cursor: number }> {
  const events = await store.readEvents(sessionId, { after });
  return { lines: events.map(describe), cursor: events.at(-1)?.id ?? after };
}
// #endregion session-context

function describe(event: QuestionEvent): string {
  switch (event.type) {
    case 'human_input_requested':
      return `asked: ${event.data.questions.map((question) => question.question).join(' / ')}`;
    case 'response_from_human':
      return `answered: ${event.data.answer.answers.map((item) => `${item.id}=${item.custom ?? item.selected.join(', ')}`).join('; ')}`;
    case 'response_rejected':
      return `refused a response (${event.data.reason})`;
    case 'vote_cast':
      return `approved by ${event.data.principalId} (${event.data.approvals} of ${event.data.needed})`;
    case 'cancelled':
      return `dismissed${event.data.message === undefined ? '' : `: ${event.data.message}`}`;
    case 'aborted':
    case 'timed_out':
      return `withdrawn (${event.type})`;
    case 'delivered':
      return `shown to ${event.data.connectionId}`;
    case 'escalated':
      return `escalated to tier ${event.data.tier} (${event.data.answerers.join(', ')})`;
    case 'record_quarantined':
      return `set aside by the host: ${event.data.reason}`;
  }
}
