import { describe, expect, it } from 'vitest';
import { silentLogger } from './logger.js';
import { exhaustiveSessions, type Principal } from './principal.js';

const principal = (sessions: unknown[], sessionsExhaustive = true): Principal =>
  ({ id: 'p', canSee: () => true, sessions, sessionsExhaustive }) as Principal;

describe('exhaustiveSessions', () => {
  it('is a copy of the listed sessions: later edits to the principal\'s list change nothing', () => {
    const listed = principal(['s1', 's2']);
    const scope = exhaustiveSessions(listed, silentLogger);
    expect(scope).toEqual(['s1', 's2']);
    expect(scope).not.toBe(listed.sessions);
    (listed.sessions as string[]).push('s3');
    expect(scope).toEqual(['s1', 's2']);
  });

  it('leaves out whatever is not a string, and is undefined for a list that is not exhaustive', () => {
    expect(exhaustiveSessions(principal(['s1', 7, null, 's2']), silentLogger)).toEqual(['s1', 's2']);
    expect(exhaustiveSessions(principal(['s1'], false), silentLogger)).toBeUndefined();
  });
});
