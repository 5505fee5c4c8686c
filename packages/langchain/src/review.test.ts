// reviewActions against a real host and client: the cards, the decisions exactly as the
// middleware takes them, and what happens when nobody decides.
import { approvalOf } from '@askseam/client';
import type { HITLRequest, HITLResponse } from 'langchain';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { personAtHost, type Person } from '@askseam/test-support';
import { hitlRequestOf, type HitlRequest, type HitlResponse } from './hitl-types.js';
import { reviewActions } from './review.js';

let person: Person | undefined;
afterEach(async () => {
  await person?.close();
  person = undefined;
});

const deploy = { name: 'deploy', args: { service: 'api', replicas: 3, region: 'eu', notes: { ticket: 42 } }, description: 'Deploys a service.' };

function request(allowedDecisions: HitlRequest['reviewConfigs'][number]['allowedDecisions'], argsSchema?: Record<string, unknown>): HitlRequest {
  return { actionRequests: [deploy], reviewConfigs: [{ actionName: 'deploy', allowedDecisions, ...(argsSchema ? { argsSchema } : {}) }] };
}

describe('reviewActions', () => {
  it('shows an approve-or-reject call as the approval card and resolves { type: "approve" }', async () => {
    person = await personAtHost();
    const response = reviewActions(person.userQuestions, request(['approve', 'reject']), { agent: person.agent });
    const card = await person.nextQuestion();
    expect(approvalOf(card.questions)).toMatchObject({ toolName: 'deploy', input: deploy.args, reason: 'Deploys a service.', approve: 'Approve', deny: 'Deny' });
    await card.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });
    await expect(response).resolves.toEqual({ decisions: [{ type: 'approve' }] });
  });

  it('rejects ASK_CANCELLED, deciding nothing, when the person dismisses the card', async () => {
    person = await personAtHost();
    const response = reviewActions(person.userQuestions, request(['approve', 'reject']), { agent: person.agent });
    response.catch(() => undefined);
    await (await person.nextQuestion()).cancel();
    await expect(response).rejects.toMatchObject({ name: 'UserQuestionError', code: 'ASK_CANCELLED' });
  });

  it('offers only the decisions the middleware allows, and asks again when the person picks none of them', async () => {
    person = await personAtHost();
    const response = reviewActions(person.userQuestions, request(['approve', 'edit']), { agent: person.agent });
    const first = await person.nextQuestion();
    expect(first.questions[0]?.options?.map((option) => option.label)).toEqual(['Approve', 'Edit']);
    await first.answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'No.' }] });
    const again = await person.nextQuestion();
    await again.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });
    await expect(response).resolves.toEqual({ decisions: [{ type: 'approve' }] });
  });

  it('asks a plain question, not an approval, when approving is not allowed', async () => {
    person = await personAtHost();
    const response = reviewActions(person.userQuestions, request(['edit', 'reject']), { agent: person.agent });
    const card = await person.nextQuestion();
    expect(card.questions[0]?.intent).toBeUndefined();
    expect(card.questions[0]?.options?.map((option) => option.label)).toEqual(['Edit', 'Deny']);
    await card.answer({ answers: [{ id: 'tool-approval', selected: ['Deny'] }] });
    await expect(response).resolves.toEqual({ decisions: [{ type: 'reject', message: 'The user denied running deploy.' }] });
  });

  it('types the edit form from the review’s argsSchema and keeps what the form cannot hold', async () => {
    person = await personAtHost();
    const argsSchema = {
      type: 'object',
      properties: {
        service: { type: 'string' },
        replicas: { type: 'integer', minimum: 1, maximum: 10 },
        region: { type: 'string', enum: ['eu', 'us'] },
        notes: { type: 'object' },
      },
    };
    const response = reviewActions(person.userQuestions, request(['approve', 'edit', 'reject'], argsSchema), { agent: person.agent });
    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: ['Edit'] }] });
    const form = await person.nextQuestion();
    expect(form.questions).toMatchObject([
      { id: 'edit:service', input: { kind: 'text' }, required: false },
      { id: 'edit:replicas', input: { kind: 'number', step: 1, min: 1, max: 10 } },
      { id: 'edit:region', input: { kind: 'select' }, options: [{ label: 'eu' }, { label: 'us' }] },
    ]);
    await form.answer({
      answers: [
        { id: 'edit:service', selected: [] },
        { id: 'edit:replicas', selected: [], custom: '5' },
        { id: 'edit:region', selected: ['us'] },
      ],
    });
    await expect(response).resolves.toEqual({
      decisions: [{ type: 'edit', editedAction: { name: 'deploy', args: { service: 'api', replicas: 5, region: 'us', notes: { ticket: 42 } } } }],
    });
  });
});

describe('hitlRequestOf', () => {
  it('recognises the middleware’s payload and nothing else', () => {
    expect(hitlRequestOf(request(['approve']))).toEqual(request(['approve']));
    expect(hitlRequestOf({ question: 'Which region?' })).toBeUndefined();
    expect(hitlRequestOf({ actionRequests: [{ name: 'x' }], reviewConfigs: [] })).toBeUndefined();
    expect(hitlRequestOf({ actionRequests: [], reviewConfigs: [{ actionName: 'x', allowedDecisions: ['maybe'] }] })).toBeUndefined();
  });

  it('has the same shapes as langchain’s own HITLRequest and HITLResponse', () => {
    expectTypeOf<HitlRequest>().toExtend<HITLRequest>();
    expectTypeOf<HITLRequest>().toExtend<HitlRequest>();
    expectTypeOf<HitlResponse>().toExtend<HITLResponse>();
  });
});
