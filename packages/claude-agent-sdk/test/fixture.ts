// The real pieces every test here drives: the scripted Messages API, a WebSocket host with token
// auth on 127.0.0.1, a UserQuestions seam with one live agent, and a client answering as the person.
import { connectQuestions, type PendingQuestion, type QuestionClient } from '@askseam/client';
import { createWebSocketHost, type WebSocketHost } from '@askseam/host-ws';
import type { QuestionRecord } from '@askseam/store';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { query, type Options, type SDKMessage, type SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { WebSocket } from 'ws';
import { claudeSandbox, startScriptedMessagesApi, type ScriptedMessagesApi } from './scripted-messages-api.js';

export const TOKEN = 'claude-agent-sdk-token-0123456789';
export const agent: AgentRef = { id: 'agent-claude' };

const cleanups: (() => unknown)[] = [];

/** Undo everything the fixture started, newest first (call it in afterEach). */
export async function cleanup(): Promise<void> {
  for (const undo of cleanups.splice(0).reverse()) await undo();
}

export interface Rig {
  api: ScriptedMessagesApi;
  userQuestions: UserQuestions;
  host: WebSocketHost;
  client: QuestionClient;
  /** The options every query here shares: the sandbox, the scripted API, no settings files. */
  base: Options;
}

/** Start everything; `onResume` is handed to the host (detached questions' answers arrive there). */
export async function startRig(hostOptions: { onResume?: (record: QuestionRecord) => Promise<void> } = {}): Promise<Rig> {
  const api = await startScriptedMessagesApi();
  cleanups.push(() => api.close());
  const sandbox = claudeSandbox(api.url);
  cleanups.push(() => sandbox.remove());
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
  const host = await createWebSocketHost({ userQuestions, token: TOKEN, ...hostOptions });
  cleanups.push(() => host.close());
  const client = connectQuestions({ url: host.url, token: TOKEN, WebSocket });
  cleanups.push(() => client.close());
  await new Promise<void>((resolve) => {
    if (client.status === 'open') return resolve();
    const off = client.on('status', (status) => status === 'open' && (off(), resolve()));
  });
  const base: Options = { cwd: sandbox.dir, env: sandbox.env, settingSources: [], tools: ['AskUserQuestion', 'Bash'] };
  return { api, userQuestions, host, client, base };
}

/** The next question the person's client is shown. */
export function nextQuestion(client: QuestionClient): Promise<PendingQuestion> {
  return new Promise((resolve) => {
    const off = client.on('requested', (question) => {
      off();
      resolve(question);
    });
  });
}

/** Run one real query() to its end; resolves with every message and the result. */
export async function run(prompt: string, options: Options): Promise<{ messages: SDKMessage[]; result: SDKResultMessage | undefined }> {
  const messages: SDKMessage[] = [];
  for await (const message of query({ prompt, options })) messages.push(message);
  return { messages, result: messages.findLast((message): message is SDKResultMessage => message.type === 'result') };
}
