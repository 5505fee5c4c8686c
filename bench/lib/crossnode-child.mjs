// Node B of the cross-node section's two-process variant, in its own process: a host on the Redis
// store and bus at argv's URL and key prefix, with one client of session `cross` that answers at
// once. Tells the parent `{ ready }` once that client is open; on `close` it reports how many
// questions its client was shown, closes everything and exits.
import { RedisQuestionBus } from '@askseam/bus-redis';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startNode } from './redis-nodes.mjs';

const [url, keyPrefix, nodeId] = process.argv.slice(2);
if (!url || !keyPrefix || !nodeId || !process.send) throw new Error('usage: fork(crossnode-child.mjs, [redis url, key prefix, node id])');

const store = new RedisQuestionStore({ url, keyPrefix });
const node = await startNode({ sessions: ['cross'], store, bus: new RedisQuestionBus({ url, keyPrefix, nodeId }) });
const shown = await node.connectAnswering('cross');
process.send({ ready: true });

process.on('message', async (message) => {
  if (message !== 'close') return;
  await node.close();
  await store.close();
  process.send({ shown: shown.count }, () => process.exit(0));
});
// The parent is gone (killed over budget, crashed): do not outlive it.
process.on('disconnect', () => process.exit(0));
