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
      version: false,
    });
  });

  it('reads --http, --port, --timeout in seconds and --open', () => {
    expect(parseCliOptions(['--http', '--port', '4318', '--timeout', '90', '--open'], {})).toMatchObject({ transport: 'http', port: 4318, timeoutMs: 90_000, open: true });
  });

  it('reads a value after an equals sign as well as after a space', () => {
    expect(parseCliOptions(['--port=4318', '--timeout=90', '--token=a-token-of-enough-length'], {})).toMatchObject({ port: 4318, timeoutMs: 90_000, token: 'a-token-of-enough-length' });
    expect(parseCliOptions(['--port', '4318'], {})).toMatchObject({ port: 4318 });
  });

  it('reads --version', () => {
    expect(parseCliOptions(['--version'], {})).toMatchObject({ version: true });
  });

  it('names the unknown flag in its error', () => {
    expect(() => parseCliOptions(['--verbose'], {})).toThrow(/'--verbose'/);
  });

  it.each([
    [['--port', 'eighty']],
    [['--port=eighty']],
    [['--port', '--http']],
    [['--http', '--stdio']],
    [['stray']],
    [['--port', '70000']],
    [['--timeout', '0']],
    [['--timeout']],
    [['--token', 'short']],
    [['--verbose']],
  ])('refuses %j with INVALID_OPTIONS', (args) => {
    expect(() => parseCliOptions(args, {})).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
