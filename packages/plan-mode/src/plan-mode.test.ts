import { describe, expect, it } from 'vitest';
import { PlanMode, type PlanModeChange } from './plan-mode.js';

describe('PlanMode', () => {
  it('is off for an agent that never entered', () => {
    expect(new PlanMode().isActive('main')).toBe(false);
  });

  it('turns on and off per agent, leaving other agents alone', () => {
    const planMode = new PlanMode();
    planMode.enter('main');
    planMode.enter('helper');
    planMode.exit('main');
    expect(planMode.isActive('main')).toBe(false);
    expect(planMode.isActive('helper')).toBe(true);
  });

  it('reports whether enter and exit changed anything', () => {
    const planMode = new PlanMode();
    expect(planMode.enter('main')).toBe(true);
    expect(planMode.enter('main')).toBe(false);
    expect(planMode.exit('main')).toBe(true);
    expect(planMode.exit('main')).toBe(false);
  });

  it('tells listeners about each change, and only about changes', () => {
    const planMode = new PlanMode();
    const changes: PlanModeChange[] = [];
    planMode.onChange((change) => changes.push(change));
    planMode.enter('main');
    planMode.enter('main');
    planMode.exit('main');
    planMode.exit('main');
    expect(changes).toEqual([
      { agentId: 'main', active: true },
      { agentId: 'main', active: false },
    ]);
  });

  it('stops telling a listener once it unsubscribes, and unsubscribing twice is harmless', () => {
    const planMode = new PlanMode();
    const changes: PlanModeChange[] = [];
    const unsubscribe = planMode.onChange((change) => changes.push(change));
    planMode.enter('main');
    unsubscribe();
    unsubscribe();
    planMode.exit('main');
    expect(changes).toEqual([{ agentId: 'main', active: true }]);
  });

  it('keeps the change and the other listeners when one listener throws, and reports the error', () => {
    const reported: unknown[] = [];
    const planMode = new PlanMode({ onListenerError: (error) => reported.push(error) });
    const seen: PlanModeChange[] = [];
    planMode.onChange(() => {
      throw new Error('listener bug');
    });
    planMode.onChange((change) => seen.push(change));
    expect(planMode.enter('main')).toBe(true);
    expect(planMode.isActive('main')).toBe(true);
    expect(seen).toEqual([{ agentId: 'main', active: true }]);
    expect(reported).toEqual([new Error('listener bug')]);
  });
});
