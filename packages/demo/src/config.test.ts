import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_TURNS, DEFAULT_OPENAI_BASE_URL, demoConfigFromEnv } from './config.js';
import { DemoError } from './errors.js';

function badConfig(env: Record<string, string>, argv: string[] = []): DemoError {
  try {
    demoConfigFromEnv(env, argv);
  } catch (error) {
    if (DemoError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected BAD_CONFIG');
}

describe('demoConfigFromEnv', () => {
  it('runs the scripted agent in English on the default port when nothing is set', () => {
    expect(demoConfigFromEnv({})).toEqual({ port: undefined, lang: 'en', exitWhenDone: false, agent: { kind: 'scripted' }, transport: 'ws' });
  });

  it('keeps the scripted agent when only OPENAI_API_KEY is exported', () => {
    expect(demoConfigFromEnv({ OPENAI_API_KEY: 'sk-global' }).agent).toEqual({ kind: 'scripted' });
  });

  it('drives the OpenAI endpoint by default when OPENAI_MODEL is set', () => {
    expect(demoConfigFromEnv({ OPENAI_MODEL: 'gpt-4o-mini', OPENAI_API_KEY: 'sk-1' }).agent).toEqual({
      kind: 'openai',
      baseUrl: DEFAULT_OPENAI_BASE_URL,
      apiKey: 'sk-1',
      model: 'gpt-4o-mini',
      maxTurns: DEFAULT_MAX_TURNS,
      task: undefined,
    });
  });

  it('takes a compatible base URL without a trailing slash, a turn limit and a task', () => {
    const config = demoConfigFromEnv({
      OPENAI_BASE_URL: 'http://localhost:11434/v1/',
      OPENAI_MODEL: 'llama3.1',
      ASKSEAM_DEMO_MAX_TURNS: '8',
      ASKSEAM_DEMO_TASK: 'Plan a CLI.',
    });
    expect(config.agent).toEqual({ kind: 'openai', baseUrl: 'http://localhost:11434/v1', apiKey: undefined, model: 'llama3.1', maxTurns: 8, task: 'Plan a CLI.' });
  });

  it('refuses OPENAI_BASE_URL without OPENAI_MODEL, naming the missing variable', () => {
    const error = badConfig({ OPENAI_BASE_URL: 'http://localhost:11434/v1' });
    expect(error.code).toBe('BAD_CONFIG');
    expect(error.message).toContain('set OPENAI_MODEL');
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(badConfig({ OPENAI_MODEL: 'm', OPENAI_BASE_URL: 'ftp://example.com' }).message).toContain('OPENAI_BASE_URL="ftp://example.com"');
  });

  it('reads PORT, with 0 meaning any free port', () => {
    expect(demoConfigFromEnv({ PORT: '8080' }).port).toBe(8080);
    expect(demoConfigFromEnv({ PORT: '0' }).port).toBe(0);
  });

  it('refuses a PORT that is not a port number', () => {
    expect(badConfig({ PORT: '70000' }).message).toContain('PORT="70000" is not valid');
    expect(badConfig({ PORT: 'http' }).code).toBe('BAD_CONFIG');
  });

  it('reads the language and refuses one the demo does not speak', () => {
    expect(demoConfigFromEnv({ ASKSEAM_DEMO_LANG: 'zh' }).lang).toBe('zh');
    expect(badConfig({ ASKSEAM_DEMO_LANG: 'fr' }).message).toContain('"en" or "zh"');
  });

  it('exits when done only when asked to', () => {
    expect(demoConfigFromEnv({ ASKSEAM_DEMO_EXIT_WHEN_DONE: '1' }).exitWhenDone).toBe(true);
    expect(demoConfigFromEnv({ ASKSEAM_DEMO_EXIT_WHEN_DONE: '0' }).exitWhenDone).toBe(false);
    expect(badConfig({ ASKSEAM_DEMO_EXIT_WHEN_DONE: 'maybe' }).code).toBe('BAD_CONFIG');
  });
});

describe('the transport (--transport, ASKSEAM_TRANSPORT)', () => {
  it('takes ASKSEAM_TRANSPORT, and lets --transport (either spelling) win over it', () => {
    expect(demoConfigFromEnv({ ASKSEAM_TRANSPORT: 'sse' }).transport).toBe('sse');
    expect(demoConfigFromEnv({ ASKSEAM_TRANSPORT: 'sse' }, ['--transport', 'ws']).transport).toBe('ws');
    expect(demoConfigFromEnv({}, ['--', '--transport=sse']).transport).toBe('sse');
  });

  it('refuses an unknown transport, a flag without a value and any other argument with BAD_CONFIG', () => {
    expect(badConfig({ ASKSEAM_TRANSPORT: 'http' })).toMatchObject({ code: 'BAD_CONFIG', message: 'ASKSEAM_TRANSPORT="http" is not valid; expected "ws" or "sse".' });
    expect(badConfig({}, ['--transport=websocket'])).toMatchObject({ code: 'BAD_CONFIG', message: expect.stringContaining('"ws" or "sse"') });
    expect(badConfig({}, ['--transport'])).toMatchObject({ code: 'BAD_CONFIG', message: expect.stringContaining('--transport needs a value') });
    expect(badConfig({}, ['--transprot', 'sse'])).toMatchObject({ code: 'BAD_CONFIG', message: expect.stringContaining('Unknown argument "--transprot"') });
  });
});
