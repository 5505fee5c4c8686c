import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryQuestionStore, QuestionStoreError } from '@askseam/store';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { cleanup, colourQuestion, redAnswer, startHost, TOKEN, type TestHost } from '../test/fixture.js';
import { RawClient } from '../test/raw-client.js';
import { WebSocketHostError, type NotifyContext } from './index.js';
import { LinkSigner } from './link.js';

afterEach(cleanup);

const PAGE = 'https://app.example/answer?theme=dark';
const SECRET = 'a-link-secret-of-at-least-32-bytes!!';

/** The real in-memory store, whose saves wait until the test releases them (a slow disk or network). */
class SlowSaveStore extends MemoryQuestionStore {
  /** When set, a held save ends by refusing with this error instead of saving. */
  refuseWith: Error | undefined;
  #release!: () => void;
  readonly #gate = new Promise<void>((resolve) => {
    this.#release = resolve;
  });

  release(): void {
    this.#release();
  }

  override async save(...args: Parameters<MemoryQuestionStore['save']>): Promise<void> {
    await this.#gate;
    return super.save(...args);
  }

  // The host saves a question with its asked event in one step when the store can.
  override async saveWithEvent(...args: Parameters<MemoryQuestionStore['saveWithEvent']>): Promise<void> {
    await this.#gate;
    if (this.refuseWith) throw this.refuseWith;
    return super.saveWithEvent(...args);
  }
}

/** The capability a link URL carries. */
function capabilityOf(link: string): string {
  const capability = new URL(link).searchParams.get('link');
  if (capability === null) throw new Error(`no ?link= in ${link}`);
  return capability;
}

/** The host's HTTP base (the WebSocket path, spelled http). */
function httpBase(host: TestHost['host']): string {
  return host.url.replace(/^ws:/, 'http:');
}

/** Ask as `sessionId` and wait until the question is saved (a token client sees it), returning its rpcId. */
async function askAndSee(test: TestHost, watcher: RawClient, sessionId: string, label: string): Promise<string> {
  void test.ask(sessionId, [{ ...colourQuestion, question: label }]).settled;
  const requested = await watcher.next('question/requested', (frame) => frame.questions[0]?.question === label);
  return requested.rpcId;
}

describe('LinkSigner', () => {
  it('verifies what it signed, and refuses a changed payload, a changed signature, another secret and an expired link', () => {
    let now = 1_000;
    const signer = new LinkSigner(SECRET, () => now);
    const capability = signer.sign('q1', 'agent-a', 500);
    expect(signer.verify(capability)).toEqual({ ok: true, claims: { rpcId: 'q1', sessionId: 'agent-a', exp: 1_500 } });

    const [payload, signature] = capability.split('.') as [string, string];
    const otherPayload = Buffer.from(JSON.stringify({ rpcId: 'q2', sessionId: 'agent-a', exp: 1_500 })).toString('base64url');
    expect(signer.verify(`${otherPayload}.${signature}`)).toEqual({ ok: false, reason: 'the link signature does not match' });
    const flipped = `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(signer.verify(flipped).ok).toBe(false);
    expect(new LinkSigner(`${SECRET}x`, () => now).verify(capability).ok).toBe(false);
    expect(signer.verify('no-dot-here').ok).toBe(false);

    now = 1_500;
    expect(signer.verify(capability)).toEqual({ ok: false, reason: 'the link has expired' });
  });

  it('accepts only the canonical encoding of the signature: junk, padding, spaces, "+/", a doubled or trailing-bit variant all fail', () => {
    const signer = new LinkSigner(SECRET, () => 1_000);
    const capability = signer.sign('q1', 'agent-a', 500);
    const [payload, signature] = capability.split('.') as [string, string];
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // 43 characters carry 258 bits for 256: the last character's two low bits are padding, and a
    // lenient decoder ignores them, so another last character decodes to the same bytes.
    const last = signature.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBytesLast = alphabet[alphabet.indexOf(last) ^ 1]!;
    const variants = [
      `${signature}=`,
      `${signature}==`,
      `${signature}=junk`,
      `${signature} `,
      ` ${signature}`,
      `${signature.slice(0, 20)} ${signature.slice(20)}`,
      `${signature}!`,
      `${signature}${signature}`,
      signature.replaceAll('-', '+').replaceAll('_', '/'),
      `${signature.slice(0, -1)}${sameBytesLast}`,
      `${signature}A`,
    ].filter((variant) => variant !== signature);
    // Every variant decodes (leniently) to the very bytes of the signature: only the encoding differs.
    for (const variant of variants.slice(0, 7)) expect(Buffer.from(variant, 'base64url').equals(Buffer.from(signature, 'base64url')), variant).toBe(true);
    for (const variant of variants) expect(signer.verify(`${payload}.${variant}`), JSON.stringify(variant)).toEqual({ ok: false, reason: 'the link signature does not match' });
    expect(signer.verify(capability).ok).toBe(true);
  });

  it('accepts the links of another signer with the same secret (another node, or the next process)', () => {
    const capability = new LinkSigner(Buffer.from(SECRET)).sign('q1', 'agent-a', 60_000);
    expect(new LinkSigner(SECRET).verify(capability).ok).toBe(true);
    // Without a secret each signer has its own random key: a restart forgets every link.
    expect(new LinkSigner(undefined).verify(new LinkSigner(undefined).sign('q1', 'agent-a', 60_000)).ok).toBe(false);
  });
});

describe('one-question links on the host', () => {
  it('sees and answers its own question only: others are neither replayed nor delivered, and answering one is forbidden', async () => {
    const test = await startHost({ linkBaseUrl: PAGE, linkSecret: SECRET });
    const watcher = await test.connect();
    await watcher.next('hello');
    const mine = await askAndSee(test, watcher, 'agent-a', 'mine');
    const sameSession = await askAndSee(test, watcher, 'agent-a', 'same session');
    const otherSession = await askAndSee(test, watcher, 'agent-b', 'other session');

    const link = test.host.linkFor(mine);
    expect(link.startsWith('https://app.example/answer?theme=dark&link=')).toBe(true);
    const client = await test.connect({ query: `link=${encodeURIComponent(capabilityOf(link))}` });
    expect(await client.next('hello')).toMatchObject({ pending: [mine], link: { rpcId: mine, settled: false } });
    expect((await client.next('question/requested')).rpcId).toBe(mine);

    // A question asked in the same session now goes to the token client, not to the link.
    const later = await askAndSee(test, watcher, 'agent-a', 'asked later');
    expect(await client.respond(sameSession, { ok: false, error: { code: 'cancelled' } })).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect(await client.answer(otherSession, 'agent-b', redAnswer)).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect(await client.answer(later, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'forbidden' });
    expect(client.all('question/requested').map((frame) => frame.rpcId)).toEqual([mine]);
    expect(test.host.pending().map((question) => question.rpcId)).toEqual([mine, sameSession, otherSession, later]);

    expect(await client.answer(mine, 'agent-a', redAnswer)).toMatchObject({ rpcId: mine, accepted: true });
    // The watcher is told; the link's own accepted receipt is its news (protocol 2).
    expect(await watcher.next('question/resolved', (frame) => frame.rpcId === mine)).toMatchObject({ outcome: 'answered' });
    // Settling another question of the session is not news for the link.
    expect(await watcher.respond(sameSession, { ok: false, error: { code: 'cancelled' } })).toMatchObject({ accepted: true });
    await client.respond('no-such-question', { ok: false, error: { code: 'cancelled' } });
    expect(client.all('question/resolved')).toEqual([]);
  });

  it('refuses a tampered link and an expired one with 401, on the upgrade and on the HTTP API', async () => {
    const test = await startHost({ linkBaseUrl: PAGE });
    const watcher = await test.connect();
    await watcher.next('hello');
    const rpcId = await askAndSee(test, watcher, 'agent-a', 'tamper');
    const capability = capabilityOf(test.host.linkFor(rpcId));
    const [payload, signature] = capability.split('.') as [string, string];
    const widened = Buffer.from(JSON.stringify({ rpcId, sessionId: 'agent-b', exp: Date.now() + 60_000 })).toString('base64url');
    const tampered = [`${widened}.${signature}`, `${payload}.${signature.slice(0, -2)}`, `${payload}x.${signature}`];
    for (const bad of tampered) {
      expect(await RawClient.refusal(`${test.host.url}?link=${encodeURIComponent(bad)}`)).toBe(401);
      expect((await fetch(`${httpBase(test.host)}/questions?link=${encodeURIComponent(bad)}`)).status).toBe(401);
    }
    // A bad link is not rescued by a good token beside it: the link alone decides.
    expect(await RawClient.refusal(`${test.host.url}?token=${TOKEN}&link=${encodeURIComponent(tampered[0]!)}`)).toBe(401);

    const expiring = capabilityOf(test.host.linkFor(rpcId, { expiresIn: 1 }));
    await sleep(20);
    expect(await RawClient.refusal(`${test.host.url}?link=${encodeURIComponent(expiring)}`)).toBe(401);
    expect((await fetch(`${httpBase(test.host)}/questions/${rpcId}?link=${encodeURIComponent(expiring)}`)).status).toBe(401);
    expect(test.events.filter((event) => event.type === 'auth-failed').map((event) => event.type === 'auth-failed' && event.reason)).toContain('the link has expired');
    expect(test.host.pending().map((question) => question.rpcId)).toEqual([rpcId]);
  });

  it('says so when the question was settled: hello marks the link settled and replays nothing; the HTTP API answers 410', async () => {
    const test = await startHost({ linkBaseUrl: PAGE });
    const watcher = await test.connect();
    await watcher.next('hello');
    const rpcId = await askAndSee(test, watcher, 'agent-a', 'settled');
    const other = await askAndSee(test, watcher, 'agent-a', 'still pending');
    const capability = encodeURIComponent(capabilityOf(test.host.linkFor(rpcId)));
    expect(await watcher.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });

    const client = await test.connect({ query: `link=${capability}` });
    expect(await client.next('hello')).toMatchObject({ pending: [], link: { rpcId, settled: true } });
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: false, reason: 'not-pending' });
    expect(client.all('question/requested')).toEqual([]);

    const response = await fetch(`${httpBase(test.host)}/questions/${rpcId}?link=${capability}`);
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({ error: { code: 'settled', message: 'The question this link is for was settled (answered); the link no longer works.' } });
    expect((await fetch(`${httpBase(test.host)}/questions/${other}/answer?link=${capability}`, { method: 'POST', body: JSON.stringify({ sessionId: 'agent-a', answer: redAnswer }) })).status).toBe(410);
    expect(test.host.pending().map((question) => question.rpcId)).toEqual([other]);
  });

  it('serves the HTTP API for its one question: listed alone, answerable, others and session events forbidden', async () => {
    const test = await startHost({ linkBaseUrl: PAGE });
    const watcher = await test.connect();
    await watcher.next('hello');
    const mine = await askAndSee(test, watcher, 'agent-a', 'mine');
    const other = await askAndSee(test, watcher, 'agent-a', 'other');
    const link = `link=${encodeURIComponent(capabilityOf(test.host.linkFor(mine)))}`;
    const base = httpBase(test.host);

    const listed = (await (await fetch(`${base}/questions?${link}`)).json()) as { questions: { rpcId: string }[] };
    expect(listed.questions.map((question) => question.rpcId)).toEqual([mine]);
    expect((await fetch(`${base}/questions/${other}?${link}`)).status).toBe(403);
    expect((await fetch(`${base}/sessions/agent-a/events?${link}`)).status).toBe(403);
    const post = (rpcId: string) => fetch(`${base}/questions/${rpcId}/answer?${link}`, { method: 'POST', body: JSON.stringify({ sessionId: 'agent-a', answer: redAnswer }) });
    expect((await post(other)).status).toBe(403);
    const answered = await post(mine);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ rpcId: mine, accepted: true });
    expect(test.host.pending().map((question) => question.rpcId)).toEqual([other]);
  });

  it('gives notify the link of each question, and that link answers it', async () => {
    const notified: { rpcId: string; context: NotifyContext }[] = [];
    const test = await startHost({ linkBaseUrl: PAGE, notify: (record, context) => void notified.push({ rpcId: record.rpcId, context }) });
    const watcher = await test.connect();
    await watcher.next('hello');
    const asking = test.ask('agent-a');
    const rpcId = (await watcher.next('question/requested')).rpcId;
    await expect.poll(() => notified.length).toBe(1);
    expect(notified[0]?.rpcId).toBe(rpcId);
    const link = notified[0]?.context.link ?? '';
    expect(link.startsWith('https://app.example/answer?theme=dark&link=')).toBe(true);

    const client = await test.connect({ query: `link=${encodeURIComponent(capabilityOf(link))}` });
    expect((await client.next('question/requested')).rpcId).toBe(rpcId);
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('gives notify no link without linkBaseUrl, and linkFor then throws NO_LINK_BASE_URL', async () => {
    const contexts: NotifyContext[] = [];
    const test = await startHost({ notify: (_record, context) => void contexts.push(context) });
    const watcher = await test.connect();
    await watcher.next('hello');
    const rpcId = await askAndSee(test, watcher, 'agent-a', 'no page');
    await expect.poll(() => contexts.length).toBe(1);
    expect(contexts[0]).toEqual({});
    const error = (() => {
      try {
        test.host.linkFor(rpcId);
      } catch (caught) {
        return caught;
      }
    })();
    expect(WebSocketHostError.isInstance(error) && error.code).toBe('NO_LINK_BASE_URL');
  });

  it('mints a link for a question pending() lists before its save lands; the link waits for the save, then answers it', async () => {
    const store = new SlowSaveStore();
    onTestFinished(() => store.release());
    const test = await startHost({ linkBaseUrl: PAGE, store });
    const asking = test.ask('agent-a');
    // The same tick as the ask: listed, not saved yet.
    const [listed] = test.host.pending();
    expect(listed).toBeDefined();
    const capability = capabilityOf(test.host.linkFor(listed!.rpcId));

    // Used before the save lands: not "settled", not "unknown": the question is on its way.
    const early = await fetch(`${httpBase(test.host)}/questions/${listed!.rpcId}?link=${encodeURIComponent(capability)}`);
    expect(early.status).toBe(503);
    expect(early.headers.get('retry-after')).toBe('1');
    expect(await early.json()).toMatchObject({ error: { code: 'not-ready' } });
    const client = await test.connect({ query: `link=${encodeURIComponent(capability)}` });
    expect(await client.next('hello')).toMatchObject({ pending: [], link: { rpcId: listed!.rpcId, settled: false } });

    store.release();
    expect((await client.next('question/requested')).rpcId).toBe(listed!.rpcId);
    expect(await client.answer(listed!.rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('tells a link opened while its question was being saved that the question is gone when the save fails', async () => {
    const store = new SlowSaveStore();
    store.refuseWith = new QuestionStoreError('STORE_FULL', 'Redis is out of memory; nothing was written.');
    onTestFinished(() => store.release());
    const test = await startHost({ linkBaseUrl: PAGE, store });
    const asking = test.ask('agent-a');
    const [listed] = test.host.pending();
    const capability = capabilityOf(test.host.linkFor(listed!.rpcId));
    const client = await test.connect({ query: `link=${encodeURIComponent(capability)}` });
    expect(await client.next('hello')).toMatchObject({ link: { rpcId: listed!.rpcId, settled: false } });

    store.release();
    expect(await asking.settled).toMatchObject({ ok: false });
    // Not left waiting for a question that will never come.
    expect(await client.next('question/resolved')).toMatchObject({ rpcId: listed!.rpcId, outcome: 'cancelled' });
    expect(test.host.pending()).toEqual([]);
  });

  it('refuses to mint a link for a question that is not pending, or with a bad expiresIn', async () => {
    const test = await startHost({ linkBaseUrl: PAGE });
    const watcher = await test.connect();
    await watcher.next('hello');
    const rpcId = await askAndSee(test, watcher, 'agent-a', 'x');
    const codeOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return WebSocketHostError.isInstance(error) ? error.code : String(error);
      }
      return 'no error';
    };
    expect(codeOf(() => test.host.linkFor('no-such-question'))).toBe('NOT_PENDING');
    expect(codeOf(() => test.host.linkFor(rpcId, { expiresIn: 0 }))).toBe('INVALID_REQUEST');
    expect(codeOf(() => test.host.linkFor(rpcId, { expiresIn: 1.5 }))).toBe('INVALID_REQUEST');
    await watcher.answer(rpcId, 'agent-a', redAnswer);
    expect(codeOf(() => test.host.linkFor(rpcId))).toBe('NOT_PENDING');
  });

  it('rejects a short linkSecret and a linkBaseUrl that is not an http(s) URL', async () => {
    await expect(startHost({ linkSecret: 'too short' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('linkSecret') });
    await expect(startHost({ linkSecret: new Uint8Array(31) })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(startHost({ linkBaseUrl: 'ws://app.example/answer' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('linkBaseUrl') });
    await expect(startHost({ linkBaseUrl: '/answer' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
