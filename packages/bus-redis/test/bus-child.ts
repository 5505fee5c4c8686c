// A bus node in its own process, for the test that SIGKILLs it: argv is <url> <keyPrefix> <nodeId>.
// It subscribes, prints one JSON line once it is on the bus, and then waits to be killed.
import { RedisQuestionBus } from '@askseam/bus-redis';

const [url, keyPrefix, nodeId] = process.argv.slice(2);
// A short liveness ttl: the test waits for the killed node to count as gone.
const bus = new RedisQuestionBus({ url, keyPrefix, nodeId, livenessTtlMs: 1_000 });
await bus.subscribe({ message() {}, resync() {} });
process.stdout.write(`${JSON.stringify({ nodeId: bus.nodeId, pid: process.pid })}\n`);
// Keeps the process alive (the bus's own sockets would too; this does not depend on that).
setInterval(() => {}, 60_000);
