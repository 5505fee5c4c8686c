// The bad-response limit of POST <path>/respond, over a real Node http server: it counts per
// sender (the principal from one client address), as the socket counts per connection.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, redAnswer, startHost, TOKEN } from './fixture.js';
import { cleanupSse, mount } from './sse-fixture.js';

afterEach(async () => {
  await cleanupSse();
  await cleanup();
});

/** POST one frame to `<base>/respond` from `localAddress` (a loopback address of its own: another machine), with `headers`. */
function postFrom(base: string, frame: unknown, localAddress: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const body = JSON.stringify(frame);
  return new Promise((resolve, reject) => {
    const sent = request(`${base}/respond?token=${TOKEN}`, { method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

const wrongAnswer = { answers: [{ id: 'colour', selected: ['Green'] }] };

describe('POST <path>/respond: the bad-response limit', () => {
  it('counts per sender: one holder of the token who sends maxBadFrames bad answers is refused 429, another holder\'s correct answer is accepted', async () => {
    const t = await startHost({ maxBadFrames: 3 });
    const asking = t.ask('agent-a');
    const { rpcId } = await t.event('asked');
    const base = await mount(t.host.fetchHandler(), 'node');
    const respond = (answer: unknown) => ({ type: 'question/respond', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer } } });
    // Saved before it can be answered.
    while ((await t.host.store.listPending('all')).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    for (let sent = 0; sent < 3; sent++) expect((await postFrom(base, respond(wrongAnswer), '127.0.0.2')).body).toMatchObject({ accepted: false, reason: 'bad-response' });
    expect(await postFrom(base, respond(redAnswer), '127.0.0.2')).toMatchObject({ status: 429, body: { code: 'too-many-bad-frames' } });

    expect(await postFrom(base, respond(redAnswer), '127.0.0.3')).toMatchObject({ status: 200, body: { type: 'receipt', rpcId, accepted: true } });
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('counts per the sender the app names with clientAddress (behind a proxy every request comes from one address)', async () => {
    const t = await startHost({ maxBadFrames: 2 });
    const asking = t.ask('agent-a');
    const { rpcId } = await t.event('asked');
    while ((await t.host.store.listPending('all')).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const base = await mount(t.host.fetchHandler({ clientAddress: (req) => req.headers.get('x-real-ip') ?? undefined }), 'node');
    const respond = (answer: unknown) => ({ type: 'question/respond', rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer } } });

    for (let sent = 0; sent < 2; sent++) await postFrom(base, respond(wrongAnswer), '127.0.0.1', { 'x-real-ip': '203.0.113.7' });
    expect((await postFrom(base, respond(redAnswer), '127.0.0.1', { 'x-real-ip': '203.0.113.7' })).status).toBe(429);
    expect((await postFrom(base, respond(redAnswer), '127.0.0.1', { 'x-real-ip': '198.51.100.4' })).body).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('refuses a clientAddress that is not a function with INVALID_OPTIONS', async () => {
    const t = await startHost();
    expect(() => t.host.fetchHandler({ clientAddress: 'x-real-ip' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('clientAddress') }));
  });
});
