// An agent answerer driven by the AI SDK's own MockLanguageModelV4 (scripted), placed in a real
// host's route before a person: it answers, misfits once and is corrected, or defers to the person.
import { agentAnswerer } from '@askseam/host-ws';
import { personAtHost, type Person } from '@askseam/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { modelAnswerer } from '../src/index.js';
import { promptOfCall, scriptedModel, type ScriptStep } from './scripted-model.js';

const databaseQuestion = {
  id: 'database',
  question: 'Which database should the service use?',
  options: [{ label: 'Postgres' }, { label: 'SQLite' }],
};
const sqlite = { answers: [{ id: 'database', selected: ['SQLite'] }] };

let person: Person | undefined;
afterEach(async () => {
  await person?.close();
  person = undefined;
});

/** A host whose route asks the model-made supervisor first, then (after a minute, or at once when it gives up) the token's person. */
async function supervisedHost(script: ScriptStep[]) {
  const model = scriptedModel(script);
  const supervisor = agentAnswerer(modelAnswerer({ name: 'supervisor', model }));
  person = await personAtHost({ host: { route: () => [{ answerers: [supervisor] }, { answerers: [{ principal: 'token' }], after: 60_000 }] } });
  return { model, person };
}

describe('modelAnswerer in a host route', () => {
  it('answers the question with the model\'s answer tool call, before any person sees it', async () => {
    const { person } = await supervisedHost([{ toolCall: { name: 'answer', input: sqlite } }]);
    const answer = await person.userQuestions.ask({ agent: person.agent, questions: [databaseQuestion] });
    expect(answer).toEqual(sqlite);
    expect(person.shown).toEqual([]);
  });

  it('sends a misfit back once with askseam\'s problem text, and the model\'s second answer settles it', async () => {
    const { model, person } = await supervisedHost([
      { toolCall: { name: 'answer', input: { answers: [{ id: 'database', selected: ['MySQL'] }] } } },
      { toolCall: { name: 'answer', input: sqlite } },
    ]);
    const answer = await person.userQuestions.ask({ agent: person.agent, questions: [databaseQuestion] });
    expect(answer).toEqual(sqlite);
    // The second call's prompt carries the host's own words about the first answer.
    expect(JSON.stringify(promptOfCall(model, 1))).toContain('MySQL');
    expect(JSON.stringify(promptOfCall(model, 1))).toContain('did not fit');
  });

  it('passes the question to the person at once when the model defers', async () => {
    const { person } = await supervisedHost([{ toolCall: { name: 'defer', input: { reason: 'A person should pick the database.' } } }]);
    const asking = person.userQuestions.ask({ agent: person.agent, questions: [databaseQuestion] });
    const question = await person.nextQuestion();
    await question.answer({ answers: [{ id: 'database', selected: ['Postgres'] }] });
    expect(await asking).toEqual({ answers: [{ id: 'database', selected: ['Postgres'] }] });
  });
});
