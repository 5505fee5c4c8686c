import { describe, expect, it } from 'vitest';
import type { QuestionBusMessage } from './bus.js';
import { QuestionStoreError } from './errors.js';
import { MemoryQuestionBusHub } from './memory-bus.js';
// Not a declared devDependency: store-testing depends on store, and the build graph must stay acyclic.
// The test alias and tsconfig.test.json paths resolve it to its sources.
import { describeQuestionBusContract, questionStoreErrorCode, sampleQuestionRecord } from '@askseam/store-testing';

// One hub per test: every node `makeNodes` returns for a test shares it.
let hub = new MemoryQuestionBusHub();

describeQuestionBusContract(
  'MemoryQuestionBusHub',
  async (count) => {
    hub = new MemoryQuestionBusHub();
    return Array.from({ length: count }, () => hub.connect());
  },
  {
    interrupt: (bus) => hub.interrupt(bus.nodeId),
    restore: (bus) => hub.restore(bus.nodeId),
  },
);


function asked(from: string): QuestionBusMessage {
  return { type: 'asked', from, record: sampleQuestionRecord() };
}

describe('MemoryQuestionBusHub', () => {
  it('refuses a second node with an id already on the hub', () => {
    const local = new MemoryQuestionBusHub();
    local.connect('node-a');
    expect(() => local.connect('node-a')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('lets a new node take the id of a node that closed', async () => {
    const local = new MemoryQuestionBusHub();
    await local.connect('node-a').close();
    expect(local.connect('node-a').nodeId).toBe('node-a');
  });

  it('reports an interrupted node as not alive, and alive again after restore', async () => {
    const local = new MemoryQuestionBusHub();
    const a = local.connect('node-a');
    const b = local.connect('node-b');
    await a.subscribe({ message() {}, resync() {} });
    await b.subscribe({ message() {}, resync() {} });
    local.interrupt('node-b');
    expect(await a.isNodeAlive('node-b')).toBe(false);
    local.restore('node-b');
    expect(await a.isNodeAlive('node-b')).toBe(true);
  });

  it('rejects every call of an interrupted node with STORE_UNAVAILABLE', async () => {
    const local = new MemoryQuestionBusHub();
    const a = local.connect('node-a');
    local.interrupt('node-a');
    expect(await questionStoreErrorCode(a.publish(asked('node-a')))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(a.subscribe({ message() {}, resync() {} }))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(a.isNodeAlive('node-a'))).toBe('STORE_UNAVAILABLE');
    expect(await questionStoreErrorCode(a.acquireLease('lease', 1000))).toBe('STORE_UNAVAILABLE');
  });

  it('does not deliver to an interrupted node what was published while it was cut off', async () => {
    const local = new MemoryQuestionBusHub();
    const a = local.connect('node-a');
    const b = local.connect('node-b');
    const heard: QuestionBusMessage[] = [];
    let resynced = false;
    await b.subscribe({ message: (message) => heard.push(message), resync: () => (resynced = true) });
    local.interrupt('node-b');
    await a.publish(asked('node-a'));
    local.restore('node-b');
    const after = asked('node-a');
    await a.publish(after);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // What was lost is repaired by the resync (a store read), not by a late delivery.
    expect(heard).toEqual([after]);
    expect(resynced).toBe(true);
  });

  it("counts the messages each node's listener was handed, following what the node follows", async () => {
    const local = new MemoryQuestionBusHub();
    const a = local.connect('node-a');
    const b = local.connect('node-b');
    const c = local.connect('node-c');
    for (const bus of [a, b, c]) await bus.subscribe({ message() {}, resync() {} });
    await b.follow?.('session-a');
    await c.follow?.('session-elsewhere');
    await a.publish(asked('node-a'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([local.received('node-a'), local.received('node-b'), local.received('node-c'), local.received('unknown')]).toEqual([0, 1, 0, 0]);
  });
});
