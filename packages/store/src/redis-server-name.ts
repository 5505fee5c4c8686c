/** The connection settings `redisServerName` reads: a subset of an ioredis client's `options`. */
export interface RedisConnectionSettings {
  readonly path?: string | null | undefined;
  readonly host?: string | null | undefined;
  readonly port?: number | null | undefined;
  readonly db?: number | null | undefined;
  readonly keyPrefix?: string | null | undefined;
  readonly sentinels?: readonly unknown[] | null | undefined;
  readonly username?: string | null | undefined;
}

/**
 * The one Redis server and login a client talks to, as `redis://host:port/db` (`unix:path/db` for a
 * socket; `user@` before the host or path for an ACL user other than `default`). A Redis store's
 * `announcesOn` and a Redis bus's `publishesOn` are both this name, and the store publishes for the
 * bus only when the two are equal, so both packages take it from here: two spellings could drift
 * apart. Undefined when ioredis rewrites the client's keys (its own `keyPrefix`) or the client does
 * not name one server (Sentinel). Never includes the password.
 */
export function redisServerName(settings: RedisConnectionSettings): string | undefined {
  const { path, host, port, db, keyPrefix, sentinels, username } = settings;
  if ((keyPrefix ?? '') !== '' || (sentinels?.length ?? 0) > 0) return undefined;
  // The ACL user is part of who publishes: another user may lack the channel rights (Redis 7 gives
  // new users none). No user and `default` are the same login. ioredis leaves `username` null for a
  // URL without one.
  const name = username ?? '';
  const user = name === '' || name === 'default' ? '' : `${encodeURIComponent(name)}@`;
  return path ? `unix:${user}${path}/${db ?? 0}` : `redis://${user}${host ?? '127.0.0.1'}:${port ?? 6379}/${db ?? 0}`;
}
