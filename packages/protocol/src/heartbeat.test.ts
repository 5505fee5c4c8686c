import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_HEARTBEAT_MS, DEFAULT_HOST_HEARTBEAT_MS } from './heartbeat.js';

describe('default heartbeats', () => {
  it('has the client ping twice per host heartbeat, so it notices a dead link no later than the host', () => {
    expect(DEFAULT_HOST_HEARTBEAT_MS).toBe(30_000);
    expect(DEFAULT_CLIENT_HEARTBEAT_MS * 2).toBe(DEFAULT_HOST_HEARTBEAT_MS);
  });
});
