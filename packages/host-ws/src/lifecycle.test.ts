import { describe, expect, it } from 'vitest';
import { BackgroundWork, Lifecycle } from './lifecycle.js';

describe('Lifecycle', () => {
  it('starts loading and only moves forward: a closing host never becomes running again', () => {
    const lifecycle = new Lifecycle();
    expect(lifecycle.state).toBe('loading');
    expect(lifecycle.ended).toBe(false);
    lifecycle.enter('closing');
    lifecycle.enter('running');
    expect(lifecycle.state).toBe('closing');
    expect(lifecycle.ended).toBe(true);
    lifecycle.enter('closed');
    expect(lifecycle.state).toBe('closed');
  });
});

describe('BackgroundWork', () => {
  it('drains work started by work that was already tracked', async () => {
    const work = new BackgroundWork();
    const done: string[] = [];
    work.track(
      Promise.resolve().then(() => {
        done.push('first');
        work.track(new Promise((resolve) => setTimeout(resolve, 5)).then(() => done.push('second')));
      }),
    );
    await work.drain();
    expect(done).toEqual(['first', 'second']);
  });
});
