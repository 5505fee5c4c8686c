import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_AGENT_ID, type OpenAIAgentConfig } from '../src/index.js';
import { Cleanup, connectTo, startTestDemo, toolResults } from './helpers.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    messages: { role: string; content: string | null; tool_call_id?: string; tool_calls?: { id: string; function: { name: string } }[] }[];
    tools: { type: string; function: { name: string; parameters: { type: string } } }[];
  };
}

type Reply = { status?: number; json?: unknown; text?: string };

/**
 * A real chat-completions peer on 127.0.0.1: answers each request with the next scripted reply
 * and records what it was sent.
 */
async function fakeModel(replies: Reply[]): Promise<{ baseUrl: string; requests: SeenRequest[] }> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: JSON.parse(raw) as SeenRequest['body'] });
      const reply = replies.shift() ?? { status: 500, json: { error: { message: 'The fake model has no more replies.' } } };
      res.statusCode = reply.status ?? 200;
      res.setHeader('content-type', reply.text === undefined ? 'application/json' : 'text/plain');
      res.end(reply.text ?? JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  );
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}

function toolCall(id: string, name: string, args: unknown): Reply {
  return {
    json: {
      id: `chatcmpl-${id}`,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } }] },
        },
      ],
    },
  };
}

function finalMessage(content: string): Reply {
  return { json: { choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] } };
}

function openai(baseUrl: string, overrides: Partial<OpenAIAgentConfig> = {}): OpenAIAgentConfig {
  return { kind: 'openai', baseUrl, apiKey: 'sk-test', model: 'fake-model', maxTurns: 5, task: undefined, ...overrides };
}

const askArgs = {
  questions: [
    { id: 'stack', header: 'Stack', question: 'Which stack?', options: [{ label: 'Vite (Recommended)', description: 'Fast dev server.' }, { label: 'Next.js' }] },
    { id: 'name', question: 'What is the project called?' },
  ],
};
const plan = '# Plan: Acme\n\n1. Scaffold with Vite.\n2. Deploy.';

/** Model asks, model proposes a plan, the user answers and approves through a real client, model wraps up. */
async function approvedRun() {
  const model = await fakeModel([
    toolCall('call_ask', 'ask_user_question', askArgs),
    toolCall('call_plan', 'exit_plan_mode', { plan }),
    finalMessage('The plan is approved; I will start with the scaffold.'),
  ]);
  const { demo, lines } = await startTestDemo(cleanup, { agent: openai(model.baseUrl) });
  const { nextQuestion: next } = await connectTo(cleanup, demo);
  await (await next()).answer({ answers: [{ id: 'stack', selected: ['Vite (Recommended)'] }, { id: 'name', selected: [], custom: 'Acme' }] });
  await (await next()).answer({ answers: [{ id: 'plan-review', selected: ['Approve'] }] });
  return { model, demo, lines, outcome: await demo.done };
}

describe('the OpenAI-compatible agent', () => {
  it('posts the model, a system prompt, the task and both tools to /chat/completions with the key as a bearer token', async () => {
    const model = await fakeModel([finalMessage('Nothing to ask.')]);
    const { demo } = await startTestDemo(cleanup, { agent: openai(model.baseUrl, { task: 'Plan a CLI tool.' }) });
    await demo.done;

    const [request] = model.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body.model).toBe('fake-model');
    expect(request?.body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(request?.body.messages[0]?.content).toMatch(/ask_user_question[\s\S]*exit_plan_mode/);
    expect(request?.body.messages[1]?.content).toBe('Plan a CLI tool.');
    expect(request?.body.tools.map((tool) => [tool.type, tool.function.name, tool.function.parameters.type])).toEqual([
      ['function', 'ask_user_question', 'object'],
      ['function', 'exit_plan_mode', 'object'],
    ]);
  });

  it('sends no authorization header when no API key is configured', async () => {
    const model = await fakeModel([finalMessage('Done.')]);
    const { demo } = await startTestDemo(cleanup, { agent: openai(model.baseUrl, { apiKey: undefined }) });
    await demo.done;

    expect(model.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('sends each tool result back as a tool message with the call id, after the assistant turn that made the call', async () => {
    const { model } = await approvedRun();

    const second = model.requests[1]?.body.messages ?? [];
    expect(second.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_ask', function: { name: 'ask_user_question' } }] });
    expect(second.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_ask',
      content: '{"answers":[{"id":"stack","selected":["Vite (Recommended)"]},{"id":"name","selected":[],"custom":"Acme"}]}',
    });
    const third = model.requests[2]?.body.messages ?? [];
    expect(third.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_plan', content: expect.stringMatching(/approved/) });
  });

  it('ends approved when the model finishes after its plan was approved, and prints every tool result', async () => {
    const { demo, lines, outcome } = await approvedRun();

    expect(outcome).toEqual({ status: 'approved', plan });
    expect(demo.runtime.planMode.isActive(DEMO_AGENT_ID)).toBe(false);
    expect(toolResults(lines, 'ask_user_question')).toHaveLength(1);
    expect(toolResults(lines, 'exit_plan_mode')).toHaveLength(1);
    expect(lines).toContain('[assistant] The plan is approved; I will start with the scaffold.');
  });

  it('ends finished when the model stops without a plan', async () => {
    const model = await fakeModel([finalMessage('I have no questions.')]);
    const { demo } = await startTestDemo(cleanup, { agent: openai(model.baseUrl) });

    expect(await demo.done).toEqual({ status: 'finished', message: 'I have no questions.' });
  });

  it('returns arguments that are not JSON to the model as a tool error', async () => {
    const model = await fakeModel([toolCall('call_bad', 'ask_user_question', '{"questions": ['), finalMessage('Sorry.')]);
    const { demo, lines } = await startTestDemo(cleanup, { agent: openai(model.baseUrl) });
    await demo.done;

    const toolMessage = model.requests[1]?.body.messages.at(-1);
    expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_bad', content: expect.stringMatching(/^Error: The arguments of ask_user_question are not valid JSON/) });
    expect(toolResults(lines, 'ask_user_question')).toEqual([toolMessage?.content]);
  });

  it('returns a call to an unknown tool to the model as a tool error', async () => {
    const model = await fakeModel([toolCall('call_x', 'run_shell', { command: 'ls' }), finalMessage('Ok.')]);
    const { demo } = await startTestDemo(cleanup, { agent: openai(model.baseUrl) });
    await demo.done;

    expect(model.requests[1]?.body.messages.at(-1)?.content).toMatch(/^Error: There is no tool named "run_shell"/);
  });

  it('accepts tool-call arguments sent as an object by servers that do so', async () => {
    const reply = toolCall('call_obj', 'ask_user_question', askArgs);
    const message = (reply.json as { choices: { message: { tool_calls: { function: { arguments: unknown } }[] } }[] }).choices[0]!.message;
    message.tool_calls[0]!.function.arguments = askArgs;
    const model = await fakeModel([reply, finalMessage('Thanks.')]);
    const { demo } = await startTestDemo(cleanup, { agent: openai(model.baseUrl) });
    const { nextQuestion: next } = await connectTo(cleanup, demo);

    const question = await next();
    expect(question.questions.map((item) => item.id)).toEqual(['stack', 'name']);
  });

  it('fails clearly with the status, the endpoint message and a hint on an HTTP error', async () => {
    const model = await fakeModel([{ status: 401, json: { error: { message: 'Incorrect API key provided.' } } }]);
    const { demo, lines } = await startTestDemo(cleanup, { agent: openai(model.baseUrl) });
    const outcome = await demo.done;

    expect(outcome.status).toBe('failed');
    const reason = outcome.status === 'failed' ? outcome.reason : '';
    expect(reason).toContain(`${model.baseUrl}/chat/completions answered HTTP 401`);
    expect(reason).toContain('Incorrect API key provided.');
    expect(reason).toContain('Check OPENAI_API_KEY.');
    expect(lines.at(-1)).toBe(`[done] The agent failed: ${reason}`);
  });

  it('fails clearly when the endpoint answers something that is not a chat completion', async () => {
    const model = await fakeModel([{ text: '<html>proxy login</html>' }]);
    const { demo } = await startTestDemo(cleanup, { agent: openai(model.baseUrl) });

    expect(await demo.done).toEqual({ status: 'failed', reason: expect.stringContaining('not JSON: <html>proxy login</html>') });
  });

  it('fails clearly when the endpoint cannot be reached', async () => {
    const model = await fakeModel([]);
    await cleanup.run(); // closes the fake model: its port now refuses connections
    const { demo } = await startTestDemo(cleanup, { agent: openai(model.baseUrl) });

    expect(await demo.done).toEqual({ status: 'failed', reason: expect.stringContaining('Could not reach the model endpoint') });
  });

  it('gives up after the turn limit when the model never stops calling tools', async () => {
    const model = await fakeModel([toolCall('c1', 'run_shell', {}), toolCall('c2', 'run_shell', {})]);
    const { demo } = await startTestDemo(cleanup, { agent: openai(model.baseUrl, { maxTurns: 2 }) });

    expect(await demo.done).toEqual({ status: 'turn-limit', turns: 2 });
    expect(model.requests).toHaveLength(2);
  });

  it('cancels the request in flight and ends aborted when the demo is closed', async () => {
    const hung = createServer(() => {
      // Never answers: only the demo's abort can end the request.
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    cleanup.add(
      () =>
        new Promise((resolve) => {
          hung.close(resolve);
          hung.closeAllConnections();
        }),
    );
    const seen = new Promise((resolve) => hung.once('request', resolve));
    const { demo } = await startTestDemo(cleanup, { agent: openai(`http://127.0.0.1:${(hung.address() as AddressInfo).port}/v1`) });
    await seen;

    await demo.close();
    expect(await demo.done).toEqual({ status: 'aborted' });
  });
});
