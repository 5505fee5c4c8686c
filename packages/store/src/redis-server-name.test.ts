import { describe, expect, it } from 'vitest';
import { redisServerName } from './redis-server-name.js';

describe('redisServerName', () => {
  it('names host, port and db, with the defaults ioredis uses', () => {
    expect(redisServerName({ host: 'redis.internal', port: 6380, db: 2 })).toBe('redis://redis.internal:6380/2');
    expect(redisServerName({})).toBe('redis://127.0.0.1:6379/0');
    expect(redisServerName({ path: '/run/redis.sock', db: 1 })).toBe('unix:/run/redis.sock/1');
  });

  it('names an ACL user other than default, and never the password', () => {
    expect(redisServerName({ host: 'h', port: 1, db: 0, username: 'asker' })).toBe('redis://asker@h:1/0');
    expect(redisServerName({ path: '/s', username: 'a b' })).toBe('unix:a%20b@/s/0');
    for (const username of [undefined, null, '', 'default']) expect(redisServerName({ host: 'h', port: 1, username })).toBe('redis://h:1/0');
    expect(redisServerName({ host: 'h', port: 1, username: 'u', password: 'secret' } as never)).not.toContain('secret');
  });

  it('names nothing for a client whose keys ioredis rewrites, or one that does not name one server', () => {
    expect(redisServerName({ host: 'h', keyPrefix: 'app:' })).toBeUndefined();
    expect(redisServerName({ sentinels: [{ host: 's', port: 26379 }] })).toBeUndefined();
    expect(redisServerName({ host: 'h', keyPrefix: '', sentinels: [] })).toBe('redis://h:6379/0');
  });
});
