import { describe, expect, it } from 'vitest';
import { WebSocketHostError } from './errors.js';
import { agentAnswerer, destinationsOf, isAnswerer, routeOf, tierDueAt, type Tier } from './route.js';

const context = { rpcId: 'q1', sessionId: 's', askedBy: 's', askedAt: '2026-12-01T10:00:00.000Z' };
const questions = [{ id: 'a', question: 'A?', options: [{ label: 'Yes' }, { label: 'No' }] }];

function invalidRoute(tiers: unknown): string {
  try {
    routeOf(() => tiers as Tier[], questions, context);
  } catch (error) {
    if (WebSocketHostError.isInstance(error) && error.code === 'INVALID_ROUTE') return error.message;
    throw error;
  }
  throw new Error('the route was accepted');
}

describe('routeOf', () => {
  it('refuses unusable tiers with INVALID_ROUTE naming the place and the rule', () => {
    expect(invalidRoute([])).toContain('at least one tier');
    expect(invalidRoute([{ answerers: [] }])).toContain('tiers.0.answerers: a tier needs at least one answerer');
    expect(invalidRoute([{ answerers: [{ principal: 'a' }], after: 5 }])).toContain('tier 0 is reached at once');
    expect(invalidRoute([{ answerers: [{ principal: 'a' }] }, { answerers: [{ group: 'g' }] }])).toContain('tiers.1.after');
    expect(invalidRoute([{ answerers: [{ principal: 'a' }] }, { answerers: [{ group: 'g' }], after: 10 }, { answerers: [{ group: 'h' }], after: 5 }])).toContain('no smaller than');
    expect(invalidRoute([{ answerers: [{ channel: 'C0123' }] }])).toContain('"<via>:<where>"');
    expect(invalidRoute([{ answerers: [{ principal: 'a', group: 'g' }] }])).toContain('exactly one of');
    expect(invalidRoute([{ answerers: [{ agent: 'x' }] }])).toContain('agentAnswerer');
  });

  it('wraps a throwing route in INVALID_ROUTE, and returns undefined for an unrouted question', () => {
    expect(() => routeOf(() => { throw new Error('roster down'); }, questions, context)).toThrow(/roster down/);
    expect(routeOf(() => undefined, questions, context)).toBeUndefined();
  });

  it('keeps the tiers as given, frozen', () => {
    const agent = agentAnswerer({ name: 'triage', answer: () => 'defer' });
    const tiers = routeOf(() => [{ answerers: [agent] }, { answerers: [{ group: 'oncall' }], after: 1000 }], questions, context)!;
    expect(tiers[0]!.answerers[0]).toBe(agent);
    expect(Object.isFrozen(tiers)).toBe(true);
  });

  it('refuses an agentAnswerer without a usable name or answer function', () => {
    expect(() => agentAnswerer({ name: 'has space', answer: () => 'defer' })).toThrow(WebSocketHostError);
    expect(() => agentAnswerer({ name: 'ok', answer: 'no' as never })).toThrow(WebSocketHostError);
  });
});

describe('who is an answerer', () => {
  const agent = agentAnswerer({ name: 'triage', answer: () => 'defer' });
  const tiers: Tier[] = [
    { answerers: [{ principal: 'alice' }, agent] },
    { answerers: [{ group: 'leads' }, { channel: 'slack:C1' }], after: 1000 },
  ];

  it('counts only the tiers reached so far', () => {
    expect(isAnswerer(tiers, 0, { principalId: 'carol', groups: ['leads'] })).toBe(false);
    expect(isAnswerer(tiers, 1, { principalId: 'carol', groups: ['leads'] })).toBe(true);
    expect(isAnswerer(tiers, 1, { principalId: 'alice', groups: [] })).toBe(true);
  });

  it('never lets an agent in as a principal of the same name, nor a principal in as an agent', () => {
    expect(isAnswerer(tiers, 1, { principalId: 'agent:alice', groups: [], agent: 'alice' })).toBe(false);
    expect(isAnswerer(tiers, 1, { principalId: 'triage', groups: [] })).toBe(false);
    expect(isAnswerer(tiers, 0, { principalId: 'agent:triage', groups: [], agent: 'triage' })).toBe(true);
  });

  it('matches a channel answer by its exact destination, and a channel\'s view by its via', () => {
    expect(isAnswerer(tiers, 1, { principalId: 'channel:slack', groups: [], destination: 'slack:C2' })).toBe(false);
    expect(isAnswerer(tiers, 1, { principalId: 'channel:slack', groups: [], destination: 'slack:C1' })).toBe(true);
    expect(isAnswerer(tiers, 1, { principalId: 'channel:slack', groups: [], channelVia: 'slack' })).toBe(true);
    expect(isAnswerer(tiers, 1, { principalId: 'channel:email', groups: [], channelVia: 'email' })).toBe(false);
    expect(destinationsOf(tiers, 0, 'slack')).toEqual([]);
    expect(destinationsOf(tiers, 1, 'slack')).toEqual(['slack:C1']);
  });

  it('reaches each tier at its after from the ask', () => {
    const asked = Date.parse(context.askedAt);
    expect(tierDueAt(tiers, context.askedAt, asked + 999)).toBe(0);
    expect(tierDueAt(tiers, context.askedAt, asked + 1000)).toBe(1);
  });
});
