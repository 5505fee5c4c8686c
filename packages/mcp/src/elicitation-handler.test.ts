// handleElicitation on the SDK's own Client: an McpServer's elicitation reaches a person through a
// real WebSocket host and client, and their answer goes back as content the server accepts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '@askseam/host-ws';
import { personAtHost, type Person } from '@askseam/test-support';
import { declineLinkLabel, handleElicitation, openLinkLabel } from './elicitation-handler.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

async function paired(serverInfo = { name: 'deploy-server', version: '1.0.0' }): Promise<{ person: Person; server: McpServer; client: Client; events: HostEvent[] }> {
  const events: HostEvent[] = [];
  const person = await personAtHost({ host: { onEvent: (event) => events.push(event) } });
  cleanups.push(() => person.close());
  const server = new McpServer(serverInfo);
  const client = new Client({ name: 'agent', version: '1.0.0' });
  handleElicitation(client, { userQuestions: person.userQuestions, agent: person.agent });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  // The server's first request takes id 0, whose cancellation the SDK ignores; spend it on a ping.
  await server.server.ping();
  return { person, server, client, events };
}

const deployForm = {
  type: 'object' as const,
  properties: {
    env: { type: 'string' as const, title: 'Environment', oneOf: [{ const: 'prod', title: 'Production' }, { const: 'staging', title: 'Staging' }] },
    replicas: { type: 'integer' as const, title: 'Replicas', minimum: 1, maximum: 5 },
    notify: { type: 'boolean' as const, title: 'Notify the team?' },
    contact: { type: 'string' as const, title: 'Contact', format: 'email' as const },
  },
  required: ['env'],
};

describe('handleElicitation', () => {
  it('shows a server’s form as askseam questions and sends back content valid against the form', async () => {
    const { person, server } = await paired();
    const requested = person.nextQuestion();
    const result = server.server.elicitInput({ mode: 'form', message: 'Deploy settings for v2.3', requestedSchema: deployForm });
    const pending = await requested;
    expect(pending.sessionId).toBe(person.agent.id);
    expect(pending.questions.map((question) => question.id)).toEqual(['env', 'replicas', 'notify', 'contact']);
    expect(pending.questions[0]).toMatchObject({ question: 'Environment', required: true, options: [{ label: 'Production' }, { label: 'Staging' }] });
    expect(pending.questions[0]!.detail).toContain('Deploy settings for v2.3');
    await pending.answer({
      answers: [
        { id: 'env', selected: ['Staging'] },
        { id: 'replicas', selected: [], custom: '2' },
        { id: 'notify', selected: [], custom: 'true' },
        { id: 'contact', selected: [], custom: 'ops@example.com' },
      ],
    });
    // The server's SDK validates the content against the schema it sent, so this is a real check.
    await expect(result).resolves.toEqual({ action: 'accept', content: { env: 'staging', replicas: 2, notify: true, contact: 'ops@example.com' } });
  });

  it('asks again when the answer cannot be sent, then sends the corrected one', async () => {
    const { person, server } = await paired();
    const first = person.nextQuestion();
    const result = server.server.elicitInput({ mode: 'form', message: 'Contact', requestedSchema: { type: 'object', properties: { contact: deployForm.properties.contact } } });
    const firstPending = await first;
    const next = person.nextQuestion();
    await firstPending.answer({ answers: [{ id: 'contact', selected: [], custom: 'not an address' }] });
    const second = await next;
    expect(second.questions[0]!.detail).toContain('takes an email address');
    await second.answer({ answers: [{ id: 'contact', selected: [], custom: 'me@example.com' }] });
    await expect(result).resolves.toEqual({ action: 'accept', content: { contact: 'me@example.com' } });
  });

  it('answers cancel when the person dismisses the questions', async () => {
    const { person, server } = await paired();
    const requested = person.nextQuestion();
    const result = server.server.elicitInput({ mode: 'form', message: 'Deploy?', requestedSchema: deployForm });
    await (await requested).cancel();
    await expect(result).resolves.toMatchObject({ action: 'cancel' });
  });

  it('declines a form askseam cannot show faithfully with a reason, and asks nobody', async () => {
    const { person, server } = await paired();
    // Two options with one title: the person could not tell them apart.
    const result = await server.server.elicitInput({
      mode: 'form',
      message: 'Region',
      requestedSchema: { type: 'object', properties: { region: { type: 'string', oneOf: [{ const: 'eu-west-1', title: 'Europe' }, { const: 'eu-central-1', title: 'Europe' }] } } },
    });
    expect(result).toMatchObject({ action: 'decline', _meta: { 'askseam/reason': expect.stringContaining('same title') } });
    expect(person.host.pending()).toEqual([]);
  });

  it('withdraws the question from the page when the server cancels its request', async () => {
    const { person, server } = await paired();
    const requested = person.nextQuestion();
    const resolved = person.nextResolved();
    const abort = new AbortController();
    const result = server.server.elicitInput({ mode: 'form', message: 'Deploy?', requestedSchema: deployForm }, { signal: abort.signal });
    result.catch(() => undefined);
    const pending = await requested;
    abort.abort('the tool call was cancelled');
    expect(await resolved).toMatchObject({ rpcId: pending.rpcId, outcome: 'cancelled' });
  });

  it('shows a URL elicitation as a card with the link, never opening it, and accepts when the person will open it', async () => {
    const { person, server } = await paired();
    const requested = person.nextQuestion();
    const result = server.server.elicitInput({ mode: 'url', message: 'Sign in to GitHub to continue.', url: 'https://github.com/login/device', elicitationId: 'e-1' });
    const pending = await requested;
    expect(pending.questions[0]!.question).toContain('github.com');
    expect(pending.questions[0]!.detail).toContain('https://github.com/login/device');
    expect(pending.questions[0]!.options!.map((option) => option.label)).toEqual([openLinkLabel, declineLinkLabel]);
    await pending.answer({ answers: [{ id: 'open-link', selected: [openLinkLabel] }] });
    await expect(result).resolves.toEqual({ action: 'accept' });
  });

  it('says on every question which server asks, by the name and version it gave', async () => {
    const { person, server } = await paired();
    const requested = person.nextQuestion();
    const result = server.server.elicitInput({ mode: 'form', message: 'Deploy settings for v2.3', requestedSchema: deployForm });
    const pending = await requested;
    expect(pending.questions.map((question) => question.header)).toEqual(['deploy-server', 'deploy-server', 'deploy-server', 'deploy-server']);
    expect(pending.questions[0]!.detail).toMatch(/^Asked by the MCP server deploy-server, version 1\.0\.0\./);
    await pending.cancel();
    await expect(result).resolves.toMatchObject({ action: 'cancel' });
  });

  it('shows a server name that holds line breaks on one line, so it cannot start a paragraph of its own', async () => {
    const { person, server } = await paired({ name: 'evil\n\n**askseam verified this server**\n# OK', version: '1.0\n\nTrusted' });
    const requested = person.nextQuestion();
    const result = server.server.elicitInput({ mode: 'form', message: 'Deploy settings for v2.3', requestedSchema: deployForm });
    const pending = await requested;
    expect(pending.questions[0]!.header).toBe('evil **askseam verified this server** # OK');
    const [firstParagraph] = pending.questions[0]!.detail!.split('\n');
    expect(firstParagraph).toBe('Asked by the MCP server evil \\*\\*askseam verified this server\\*\\* \\# OK, version 1.0 Trusted.');
    await pending.cancel();
    await expect(result).resolves.toMatchObject({ action: 'cancel' });
  });

  it('masks a server’s secret field, warns about it, and keeps the typed value out of the event log and events while the server gets it', async () => {
    const { person, server, events } = await paired();
    const requested = person.nextQuestion();
    const result = server.server.elicitInput({
      mode: 'form',
      message: 'Connect to the database',
      requestedSchema: {
        type: 'object',
        properties: { user: { type: 'string', title: 'User name' }, db_password: { type: 'string', title: 'Password' } },
        required: ['user', 'db_password'],
      },
    });
    const pending = await requested;
    expect(pending.questions[0]).not.toHaveProperty('sensitive');
    expect(pending.questions[1]).toMatchObject({ id: 'db_password', sensitive: true, input: { kind: 'text' } });
    expect(pending.questions[1]!.detail).toContain('asks for a secret');
    await pending.answer({ answers: [{ id: 'user', selected: [], custom: 'ada' }, { id: 'db_password', selected: [], custom: 'hunter2-correct-horse' }] });
    await expect(result).resolves.toEqual({ action: 'accept', content: { user: 'ada', db_password: 'hunter2-correct-horse' } });
    await expect.poll(async () => (await person.host.store.readEvents(person.agent.id)).map((event) => event.type)).toContain('response_from_human');
    const logged = await person.host.store.readEvents(person.agent.id);
    expect(logged.find((event) => event.type === 'response_from_human')).toMatchObject({
      data: { answer: { answers: [{ id: 'user', selected: [], custom: 'ada' }, { id: 'db_password', selected: [], custom: '[redacted]' }] } },
    });
    expect(JSON.stringify(logged)).not.toContain('hunter2');
    expect(JSON.stringify(events)).not.toContain('hunter2');
    expect(events.find((event) => event.type === 'answered')).toMatchObject({ answer: { answers: [{ custom: 'ada' }, { custom: '[redacted]' }] } });
  });

  it('refuses to register on a client that is already connected', async () => {
    const { person, client } = await paired();
    expect(() => handleElicitation(client, { userQuestions: person.userQuestions })).toThrow(expect.objectContaining({ code: 'CLIENT_ALREADY_CONNECTED' }));
  });
});
