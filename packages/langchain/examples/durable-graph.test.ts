// The durable-graph example across a real SIGKILL: a child process pauses a LangGraph thread at
// interrupt() and dies; a new process on the same two SQLite files shows the saved question, and
// the person's answer resumes the thread from its checkpoint.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectQuestions, type PendingQuestion } from '@askseam/client';
import { UserQuestions } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bundleChild, cleanupChildren, killed, startChild } from '@askseam/test-support';
import { TEST_TOKEN as TOKEN } from '@askseam/test-support';
import { startDurableGraph } from './durable-graph.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
  cleanupChildren();
});

function tempFiles(): { checkpointFile: string; questionFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-langgraph-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { checkpointFile: join(dir, 'checkpoints.db'), questionFile: join(dir, 'questions.db') };
}

type Finished = { threadId: string; state: { service: string; region: string; log: string[] } };

async function startApp(files: { checkpointFile: string; questionFile: string }) {
  const userQuestions = new UserQuestions({ agents: { get: () => undefined, roots: () => [] } });
  let nodeStarts = 0;
  let finish: (value: Finished) => void = () => undefined;
  const finished = new Promise<Finished>((resolve) => (finish = resolve));
  const app = await startDurableGraph({ userQuestions, token: TOKEN, ...files, onNodeStart: () => nodeStarts++, onDone: (threadId, state) => finish({ threadId, state }) });
  cleanups.push(() => app.close());
  const client = connectQuestions({ url: app.host.url, token: TOKEN, WebSocket });
  cleanups.push(() => client.close());
  const nextQuestion = () => new Promise<PendingQuestion>((resolve) => client.on('requested', resolve));
  return { app, finished, nextQuestion, nodeStarts: () => nodeStarts };
}

describe('the durable-graph example', () => {
  it('resumes the paused thread with the person’s answer, the node running again from its start', async () => {
    const { app, finished, nextQuestion, nodeStarts } = await startApp(tempFiles());
    const asked = nextQuestion();
    await app.deploy('api', 'thread-1');
    const question = await asked;
    expect(question.questions).toMatchObject([{ id: 'region', question: 'Where should api run?' }]);
    expect(nodeStarts()).toBe(1);

    await question.answer({ answers: [{ id: 'region', selected: ['us-east-1'] }] });
    expect(await finished).toEqual({ threadId: 'thread-1', state: { service: 'api', region: 'us-east-1', log: ['deployed api to us-east-1'] } });
    // The node that called interrupt() ran twice: once to ask, once to take the answer.
    expect(nodeStarts()).toBe(2);
  });

  it('survives a SIGKILL between the question and the answer', async () => {
    const files = tempFiles();
    const script = await bundleChild(new URL('../test/graph-child.ts', import.meta.url));
    const { child, ready } = await startChild<{ rpcId: string; nodeStarts: number }>(script, [files.checkpointFile, files.questionFile, TOKEN]);
    expect(ready.nodeStarts).toBe(1);
    expect(await killed(child)).toBe('SIGKILL');

    const { finished, nextQuestion, nodeStarts } = await startApp(files);
    const question = await nextQuestion();
    expect(question.rpcId).toBe(ready.rpcId);
    await question.answer({ answers: [{ id: 'region', selected: [], custom: 'ap-south-1' }] });

    expect(await finished).toEqual({ threadId: 'thread-1', state: { service: 'api', region: 'ap-south-1', log: ['deployed api to ap-south-1'] } });
    expect(nodeStarts()).toBe(1);
  });
});
