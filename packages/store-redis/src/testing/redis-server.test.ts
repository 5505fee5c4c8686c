import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedisServer } from './redis-server.js';

const servers: TestRedisServer[] = [];
const clients: Redis[] = [];

async function start(persistent = false): Promise<TestRedisServer> {
  const server = await startRedisServer({ persistent });
  servers.push(server);
  return server;
}

function connect(server: TestRedisServer): Redis {
  // No retries: a test that expects the server down must see the failure at once.
  const client = new Redis(server.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true, retryStrategy: () => null });
  client.on('error', () => {});
  clients.push(client);
  return client;
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  for (const server of servers.splice(0)) await server.stop();
});

describe('startRedisServer', () => {
  it('starts a server on 127.0.0.1 that answers PING at its url', async () => {
    const server = await start();
    expect(server.host).toBe('127.0.0.1');
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    const client = connect(server);
    await client.connect();
    expect(await client.ping()).toBe('PONG');
  });

  it('keeps the data of a persistent server across kill and restart on the same port', async () => {
    const server = await start(true);
    const before = connect(server);
    await before.connect();
    await before.set('kept', 'yes');
    await server.kill();
    await server.restart();
    const after = connect(server);
    await after.connect();
    expect(await after.get('kept')).toBe('yes');
  });

  it('keeps the data of a persistent server across a graceful restart', async () => {
    const server = await start(true);
    const before = connect(server);
    await before.connect();
    await before.set('kept', 'yes');
    await server.restart();
    const after = connect(server);
    await after.connect();
    expect(await after.get('kept')).toBe('yes');
  });

  it('refuses connections once killed or stopped', async () => {
    const killed = await start();
    await killed.kill();
    await expect(connect(killed).connect()).rejects.toThrow();
    const stopped = await start();
    await stopped.stop();
    await stopped.stop(); // idempotent
    await expect(connect(stopped).connect()).rejects.toThrow();
  });

  it('empties every key with flushAll', async () => {
    const server = await start();
    const client = connect(server);
    await client.connect();
    await client.set('a', '1');
    await server.flushAll();
    expect(await client.dbsize()).toBe(0);
  });

  it('starts two servers on different ports', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.port).not.toBe(b.port);
  });
});
