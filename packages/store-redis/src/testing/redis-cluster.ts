import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { startRedisServer, type StartRedisServerOptions, type TestRedisServer } from './redis-server.js';

const run = promisify(execFile);

export interface StartRedisClusterOptions {
  /** How many masters (no replicas). Default 3, the fewest `redis-cli --cluster create` accepts. */
  masters?: number;
  /** The redis-server binary. Default `/usr/bin/redis-server`. */
  binary?: StartRedisServerOptions['binary'];
  /** The redis-cli binary. Default `/usr/bin/redis-cli`. */
  cli?: string;
  /** `cluster-node-timeout` in ms: how long a killed master takes to be marked failed. Default 1000. */
  nodeTimeoutMs?: number;
}

/** A real Redis Cluster of masters on 127.0.0.1, owned by one test file. */
export interface TestRedisCluster {
  /** Every master, as started (index = its place in `urls`). */
  readonly servers: readonly TestRedisServer[];
  /** `redis://127.0.0.1:<port>` of each master. */
  readonly urls: readonly string[];
  /** `{ host, port }` of each master, for `new Cluster(nodes)`. */
  readonly nodes: readonly { host: string; port: number }[];
  /** Which master (index) serves a slot now. */
  ownerOf(slot: number): Promise<number>;
  /**
   * Move one slot with its keys from master `from` to master `to`, as `redis-cli --cluster
   * reshard` does: SETSLOT IMPORTING / MIGRATING, MIGRATE the keys in batches, SETSLOT NODE on
   * both. Clients meet ASK while it runs and MOVED after.
   */
  migrateSlot(slot: number, from: number, to: number): Promise<void>;
  /** SIGKILL one master, like a crash. Its slots stay unserved (no replicas): the cluster is down for them. */
  kill(index: number): Promise<void>;
  /** Stop every master and remove their data. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts a Redis Cluster for tests: `masters` redis-servers with `--cluster-enabled yes`, each on a
 * free port with its own temp dir (startRedisServer), joined by `redis-cli --cluster create`, and
 * resolves once every master says `cluster_state:ok`. Call `stop()` in afterAll.
 */
export async function startRedisCluster(options: StartRedisClusterOptions = {}): Promise<TestRedisCluster> {
  const masters = options.masters ?? 3;
  const cli = options.cli ?? '/usr/bin/redis-cli';
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 1_000;
  const servers = await Promise.all(
    Array.from({ length: masters }, () =>
      startRedisServer({
        ...(options.binary === undefined ? {} : { binary: options.binary }),
        // Each server has its own dir (its own nodes.conf).
        extraArgs: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(nodeTimeoutMs)],
      }),
    ),
  );
  const stop = async (): Promise<void> => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    await run(cli, ['--cluster', 'create', ...servers.map((server) => `${server.host}:${server.port}`), '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
    await untilClusterOk(servers, 20_000);
  } catch (error) {
    await stop();
    throw error;
  }

  const admin = (index: number): Redis => {
    const client = new Redis(servers[index]!.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    return client;
  };
  const nodeIds = await Promise.all(servers.map((_, index) => withClient(admin(index), (client) => client.call('CLUSTER', 'MYID') as Promise<string>)));

  return {
    servers,
    urls: servers.map((server) => server.url),
    nodes: servers.map((server) => ({ host: server.host, port: server.port })),
    async ownerOf(slot) {
      for (let index = 0; index < servers.length; index++) {
        const ranges = (await withClient(admin(index), (client) => client.call('CLUSTER', 'SLOTS'))) as [number, number, [string, number, string]][];
        for (const [start, end, [, , id]] of ranges) if (slot >= start && slot <= end) return nodeIds.indexOf(id);
      }
      throw new Error(`No master serves slot ${slot}.`);
    },
    async migrateSlot(slot, from, to) {
      const source = admin(from);
      const target = admin(to);
      try {
        await target.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', nodeIds[from]!);
        await source.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', nodeIds[to]!);
        for (;;) {
          const keys = (await source.call('CLUSTER', 'GETKEYSINSLOT', slot, 100)) as string[];
          if (keys.length === 0) break;
          await source.call('MIGRATE', servers[to]!.host, servers[to]!.port, '', 0, 5_000, 'KEYS', ...keys);
        }
        await target.call('CLUSTER', 'SETSLOT', slot, 'NODE', nodeIds[to]!);
        await source.call('CLUSTER', 'SETSLOT', slot, 'NODE', nodeIds[to]!);
        // The other masters learn it through the cluster bus; tell them at once too.
        await Promise.all(servers.map((_, index) => (index === from || index === to ? undefined : withClient(admin(index), (client) => client.call('CLUSTER', 'SETSLOT', slot, 'NODE', nodeIds[to]!)))));
      } finally {
        source.disconnect();
        target.disconnect();
      }
    },
    kill: (index) => servers[index]!.kill(),
    stop,
  };
}

async function withClient<T>(client: Redis, use: (client: Redis) => Promise<T>): Promise<T> {
  try {
    await client.connect();
    return await use(client);
  } finally {
    client.disconnect();
  }
}

async function untilClusterOk(servers: readonly TestRedisServer[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await Promise.all(
      servers.map((server) =>
        withClient(new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null }).on('error', () => {}), (client) => client.call('CLUSTER', 'INFO') as Promise<string>).catch(() => ''),
      ),
    );
    if (states.every((info) => /cluster_state:ok/.test(info))) return;
    if (Date.now() > deadline) throw new Error(`The test Redis Cluster did not reach cluster_state:ok within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
