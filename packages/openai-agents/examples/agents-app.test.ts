// docs/openai-agents.md's example, run for real: the real Runner with the SDK's ScriptedModel as
// the model, a real host and a real client answering as the person.
import { answerText } from '@askseam/tool-ask-user';
import type { AgentRef } from '@askseam/user-questions';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { seamWithAgent, TEST_TOKEN as TOKEN } from '@askseam/test-support';
import { cleanupPeople, connectPersonTo, openSqlite, startPerson, tempDbFile } from '../test/person.js';
import { releaseAgent, shipWhileWaiting, startDurableRelease } from './agents-app.js';

afterEach(cleanupPeople);

const which = { questions: [{ id: 'version', question: 'Which version?', header: 'Version', multi_select: false, options: [{ label: '1.4.0', description: 'Today’s build.' }, { label: '1.3.9', description: 'Last week’s.' }] }] };

describe('docs/openai-agents.md: the release agent', () => {
  it('asks the person, gets the deploy approved, and deploys once', async () => {
    const person = await startPerson();
    const deployed: string[] = [];
    const model = new ScriptedModel([
      [functionCall('ask_user_question', which, { callId: 'call-ask' })],
      [functionCall('deploy', { version: '1.4.0' }, { callId: 'call-deploy' })],
      [assistantMessage('Shipped 1.4.0.')],
    ]);
    const bot = releaseAgent(person.userQuestions, person.agent, model, async (version) => void deployed.push(version));

    const output = shipWhileWaiting(person.userQuestions, person.agent, bot, 'Ship the release.');
    await (await person.nextQuestion()).answer({ answers: [{ id: 'version', selected: ['1.4.0'] }] });
    const approval = await person.nextQuestion();
    await approval.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    expect(await output).toBe('Shipped 1.4.0.');
    expect(deployed).toEqual(['1.4.0']);
    const secondCall = model.calls[1]?.request.input;
    expect(Array.isArray(secondCall) && secondCall.find((item) => item.type === 'function_call_result')).toMatchObject({ output: { type: 'text', text: answerText({ answers: [{ id: 'version', selected: ['1.4.0'] }] }) } });
  });

  it('saves the approval with the run, and deploys once when it is approved after a restart', async () => {
    const file = tempDbFile();
    const agent: AgentRef = { id: 'release' };
    const deployed: string[] = [];
    const first = await startDurableRelease({
      userQuestions: seamWithAgent(agent),
      token: TOKEN,
      store: openSqlite(file),
      releaseBot: releaseAgent(seamWithAgent(agent), agent, new ScriptedModel([[functionCall('deploy', { version: '2.0.0' }, { callId: 'call-1' })]]), async (version) => void deployed.push(version)),
      onResumed: () => undefined,
    });
    expect(await first.ship('release', 'Ship 2.0.0.')).toBeUndefined();
    await first.host.close();

    const resumed: string[] = [];
    const userQuestions = seamWithAgent(agent);
    const second = await startDurableRelease({
      userQuestions,
      token: TOKEN,
      store: openSqlite(file),
      releaseBot: releaseAgent(userQuestions, agent, new ScriptedModel([[assistantMessage('2.0.0 is live.')]]), async (version) => void deployed.push(version)),
      onResumed: (run) => void resumed.push(run.status === 'finished' ? String(run.result.finalOutput) : run.status),
    });
    const person = await connectPersonTo(second.host);
    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    await expect.poll(() => resumed).toEqual(['2.0.0 is live.']);
    expect(deployed).toEqual(['2.0.0']);
    await second.host.close();
  });
});
