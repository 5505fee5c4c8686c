import { describe, expect, it } from 'vitest';
import { parseCliOptions } from './cli-options.js';

describe('parseCliOptions', () => {
  it('defaults to stdio with no port, no timeout and the token from ASKSEAM_TOKEN', () => {
    expect(parseCliOptions([], { ASKSEAM_TOKEN: 'a-token-of-enough-length' })).toEqual({
      transport: 'stdio',
      port: undefined,
      token: 'a-token-of-enough-length',
      timeoutMs: undefined,
      open: false,
      help: false,
    });
  });

  it('reads --http, --port, --timeout in seconds and --open', () => {
    expect(parseCliOptions(['--http', '--port', '4318', '--timeout', '90', '--open'], {})).toMatchObject({ transport: 'http', port: 4318, timeoutMs: 90_000, open: true });
  });

  it.each([
    [['--port', 'eighty']],
    [['--port', '70000']],
    [['--timeout', '0']],
    [['--timeout']],
    [['--token', 'short']],
    [['--verbose']],
  ])('refuses %j with INVALID_OPTIONS', (args) => {
    expect(() => parseCliOptions(args, {})).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
