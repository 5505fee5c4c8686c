import { DEFAULT_HOST_HEARTBEAT_MS, closeCodes as protocolCloseCodes } from '@askseam/protocol';
import { UserQuestions, hasUserQuestionErrorCode } from '@askseam/user-questions';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { MemoryQuestionStore } from '@askseam/store';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod';
import { closeCodes, createWebSocketHost, WebSocketHostError, type WebSocketHostOptions } from './index.js';
import { optionTable, resolveOptions } from './options.js';

describe('options', () => {
  it('refuses to start without token, authenticate or allowAnonymous, saying how to fix it', async () => {
    const userQuestions = new UserQuestions();
    const error = await createWebSocketHost({ userQuestions }).catch((e: unknown) => e);
    expect(WebSocketHostError.isInstance(error) && error.code).toBe('NO_AUTHENTICATION');
    expect((error as Error).message).toMatch(/allowAnonymous: true/);
    // Nothing was registered: the seam is free for a correctly configured host.
    expect(userQuestions.hasProvider).toBe(false);
  });

  it.each([
    ['an empty token', { token: '' }],
    ['a path without a leading slash', { token: 't', path: 'askseam' }],
    ['a negative maxPayload', { token: 't', maxPayload: -1 }],
    ['a port out of range', { token: 't', port: 70_000 }],
    ['a fractional heartbeat', { token: 't', heartbeatMs: 1.5 }],
    ['a maxConnections of 0', { token: 't', maxConnections: 0 }],
    ['a fractional maxConnectionsPerPrincipal', { token: 't', maxConnectionsPerPrincipal: 2.5 }],
    ['a negative maxLoggedRejections', { token: 't', maxLoggedRejections: -1 }],
  ])('rejects %s with INVALID_OPTIONS', async (_name, bad) => {
    const error = await createWebSocketHost({ userQuestions: new UserQuestions(), ...bad }).catch((e: unknown) => e);
    expect(WebSocketHostError.isInstance(error) && error.code).toBe('INVALID_OPTIONS');
  });

  it('rejects a missing userQuestions with INVALID_OPTIONS', async () => {
    const error = await createWebSocketHost({ token: 't' } as never).catch((e: unknown) => e);
    expect(WebSocketHostError.isInstance(error) && error.code).toBe('INVALID_OPTIONS');
  });

  it('releases the seam and aborts an early ask when its port is taken', async () => {
    const agent = { id: 'early' };
    const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
    const first = await createWebSocketHost({ userQuestions: new UserQuestions(), token: 't' });
    try {
      const starting = createWebSocketHost({ userQuestions, token: 't', port: first.port });
      // Asked while the listener is still starting: the provider is already registered.
      const early = userQuestions.ask({ agent, questions: [{ id: 'q', question: 'Still there?' }] }).catch((e: unknown) => e);
      await expect(starting).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(hasUserQuestionErrorCode(await early, 'ASK_ABORTED')).toBe(true);
      expect(userQuestions.hasProvider).toBe(false);
    } finally {
      await first.close();
    }
  });

  it('recognises its errors across copies by their marker', () => {
    const error = new WebSocketHostError('NOT_LISTENING', 'x');
    expect(WebSocketHostError.isInstance(error)).toBe(true);
    expect(WebSocketHostError.isInstance({ code: 'NOT_LISTENING' })).toBe(false);
    expect(WebSocketHostError.isInstance(Object.assign(new Error('y'), { [Symbol.for('askseam.WebSocketHostError')]: true, code: 'X' }))).toBe(true);
  });

  it('takes its default heartbeat from @askseam/protocol, the interval the client\'s default is derived from', () => {
    expect(resolveOptions({ userQuestions: new UserQuestions(), token: 't' }).heartbeatMs).toBe(DEFAULT_HOST_HEARTBEAT_MS);
  });

  it('exports the protocol\'s one table of close codes', () => {
    expect(closeCodes).toBe(protocolCloseCodes);
  });
});

describe('the options table', () => {
  const groups = Object.entries(optionTable).map(([group, checks]) => [group, Object.keys(checks)] as const);
  const names = groups.flatMap(([, keys]) => keys);

  it('holds every option of WebSocketHostOptions but the seam, once', () => {
    type TableName = { [G in keyof typeof optionTable]: keyof (typeof optionTable)[G] }[keyof typeof optionTable];
    expectTypeOf<Exclude<keyof WebSocketHostOptions, 'userQuestions'>>().toEqualTypeOf<TableName>();
    expect(new Set(names).size).toBe(names.length);
  });

  it('is documented in the README once, option by option, under a heading per group in the same order', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Options\n'), readme.indexOf('The returned `WebSocketHost` has'));
    const documented: [string, string[]][] = [];
    for (const line of section.split('\n')) {
      if (line.startsWith('### ')) documented.push([line.slice(4).split(':')[0]!.toLowerCase(), []]);
      else if (line.startsWith('| `')) documented.at(-1)?.[1].push(line.split('`')[1]!.split('(')[0]!);
    }
    expect(documented).toEqual(groups.map(([group, keys]) => [group, keys]));
  });

  it('fills in each default from the table', () => {
    const resolved = resolveOptions({ userQuestions: new UserQuestions(), token: 't' });
    for (const checks of Object.values(optionTable)) {
      for (const [name, check] of Object.entries(checks)) {
        const fallback = (check as z.ZodType).safeParse(undefined);
        expect(fallback.success).toBe(true);
        expect(resolved[name as keyof typeof resolved]).toEqual(name === 'token' ? 't' : fallback.data);
      }
    }
  });

  it('keeps the options it cannot check as given: the same server, logger and store objects', () => {
    const server = createServer();
    const store = new MemoryQuestionStore();
    const resolved = resolveOptions({ userQuestions: new UserQuestions(), token: 't', server, logger: console, store });
    expect(resolved.server).toBe(server);
    expect(resolved.logger).toBe(console);
    expect(resolved.store).toBe(store);
  });
});
