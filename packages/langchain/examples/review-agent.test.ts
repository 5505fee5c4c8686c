// The review example end to end: a real agent (createAgent, humanInTheLoopMiddleware, fakeModel),
// a real host, and a real client answering each card as the person.
import { approvalOf } from '@askseam/client';
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { personAtHost, type Person } from '@askseam/test-support';
import { createReviewedAgent } from './review-agent.js';

let person: Person | undefined;
afterEach(async () => {
  await person?.close();
  person = undefined;
});

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

/** The agent with a model that calls send_email once, and a record of the emails really sent. */
async function reviewedAgent(calls: { name: string; args: Record<string, unknown>; id: string }[]) {
  person = await personAtHost();
  const sent: unknown[] = [];
  const model = fakeModel().respondWithTools(calls).respond(new AIMessage('All done.'));
  const { run } = createReviewedAgent(model, person.userQuestions, person.agent, async (args) => {
    sent.push(args);
    return `Sent to ${args.to}.`;
  });
  return { model, run, sent, person };
}

const email = { name: 'send_email', args: { to: 'board@example.com', subject: 'Q3 numbers' }, id: 'call-1' };

describe('the review example', () => {
  it('shows the paused call as an approval card and runs it when the person approves', async () => {
    const { run, sent, person } = await reviewedAgent([email]);
    const done = run('Mail the board.', 'thread-approve');
    const card = await person.nextQuestion();
    expect(card.questions[0]).toMatchObject({ intent: { kind: 'tool-approval', approve: 'Approve', tool: { name: 'send_email', input: email.args, description: 'Sends an email.' } } });
    expect(card.questions[0]?.options?.map((option) => option.label)).toEqual(['Approve', 'Edit', 'Deny']);
    await card.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    const state = await done;
    expect(sent).toEqual([email.args]);
    expect(toolMessages(state.messages)[0]).toMatchObject({ tool_call_id: 'call-1', content: 'Sent to board@example.com.' });
  });

  it('rejects with the person’s words as the message the model reads, and sends nothing', async () => {
    const { run, sent, model, person } = await reviewedAgent([email]);
    const done = run('Mail the board.', 'thread-reject');
    const card = await person.nextQuestion();
    await card.answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'Wait until the audit is done.' }] });

    const state = await done;
    expect(sent).toEqual([]);
    expect(toolMessages(state.messages)[0]).toMatchObject({ tool_call_id: 'call-1', status: 'error', content: 'Wait until the audit is done.' });
    expect(toolMessages(model.calls[1]!.messages)[0]?.content).toBe('Wait until the audit is done.');
  });

  it('offers a typed form on Edit and runs the call with the person’s arguments', async () => {
    const { run, sent, person } = await reviewedAgent([email]);
    const done = run('Mail the board.', 'thread-edit');
    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: ['Edit'] }] });
    const form = await person.nextQuestion();
    expect(form.questions).toMatchObject([
      { id: 'edit:to', question: 'to: Recipient address', input: { kind: 'text' }, placeholder: 'Leave empty to keep "board@example.com"' },
      { id: 'edit:subject', input: { kind: 'text' } },
      { id: 'edit:urgent', input: { kind: 'checkbox' } },
    ]);
    await form.answer({
      answers: [
        { id: 'edit:to', selected: [], custom: 'cfo@example.com' },
        { id: 'edit:subject', selected: [] },
        { id: 'edit:urgent', selected: [], custom: 'true' },
      ],
    });

    await done;
    expect(sent).toEqual([{ to: 'cfo@example.com', subject: 'Q3 numbers', urgent: true }]);
  });

  it('asks about each paused call in order and resumes with one decision each', async () => {
    const second = { name: 'send_email', args: { to: 'team@example.com', subject: 'Offsite' }, id: 'call-2' };
    const { run, sent, person } = await reviewedAgent([email, second]);
    const done = run('Mail the board and the team.', 'thread-two');
    const first = await person.nextQuestion();
    expect(approvalOf(first.questions)).toBeUndefined(); // three options: the composer draws it
    expect(first.questions[0]?.intent).toMatchObject({ tool: { input: email.args } });
    await first.answer({ answers: [{ id: 'tool-approval', selected: ['Deny'] }] });
    const next = await person.nextQuestion();
    expect(next.questions[0]?.intent).toMatchObject({ tool: { input: second.args } });
    await next.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    const state = await done;
    // The middleware runs nothing of a turn with a rejection and hands the model the rejection.
    expect(sent).toEqual([]);
    expect(toolMessages(state.messages)[0]).toMatchObject({ tool_call_id: 'call-1', status: 'error', content: 'The user denied running send_email.' });
  });
});
