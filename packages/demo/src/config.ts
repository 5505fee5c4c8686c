// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { DemoError } from './errors.js';

export type DemoLang = 'en' | 'zh';

/** How the page reaches the host: a WebSocket, or HTTP + Server-Sent Events (`GET …/events`, `POST …/respond`). */
export type DemoTransport = 'ws' | 'sse';

/** Tried first when PORT is unset; easy to remember and rarely taken. A free port is used if it is. */
export const DEFAULT_PORT = 4317;
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MAX_TURNS = 20;

export interface OpenAIAgentConfig {
  kind: 'openai';
  /** Up to and including the version segment, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as a bearer token when present; local servers (Ollama, llama.cpp) often need none. */
  apiKey: string | undefined;
  model: string;
  /** Model round trips before the demo gives up, so a model that never stops cannot loop forever. */
  maxTurns: number;
  /** The opening user message; a default web-project request when absent. */
  task: string | undefined;
}

export type DemoAgentConfig = { kind: 'scripted' } | OpenAIAgentConfig;

export interface DemoConfig {
  /** `undefined` = try DEFAULT_PORT, then any free port. */
  port: number | undefined;
  lang: DemoLang;
  exitWhenDone: boolean;
  agent: DemoAgentConfig;
  /** Where pending questions are kept on disk (SQLite), so they survive a restart. Absent: in memory. */
  dataDir: string | undefined;
  /** The transport the page uses. Default `'ws'`. */
  transport: DemoTransport;
  /** `--store postgres://…`: keep questions in this PostgreSQL database (schema `askseam_demo`) instead. Absent: SQLite in dataDir, or memory. */
  storeUrl?: string | undefined;
}

export type DemoEnv = Record<string, string | undefined>;

const portSchema = z.coerce.number().int().min(0).max(65_535);
const langSchema = z.enum(['en', 'zh']);
const transportSchema = z.enum(['ws', 'sse']);
const flagSchema = z.enum(['1', 'true', 'yes', '0', 'false', 'no']);
const turnsSchema = z.coerce.number().int().min(1).max(1_000);
const urlSchema = z.url({ protocol: /^https?$/ });

/**
 * Read the demo's settings from environment variables and the command line (`argv` without the
 * node and script paths). The flags are `--transport sse|ws` (or `--transport=…`), which wins over
 * ASKSEAM_TRANSPORT, and `--store postgres://…` (questions in PostgreSQL); anything else on the
 * command line is refused, so a typo is not ignored.
 * The OpenAI-compatible agent is chosen by
 * OPENAI_MODEL or OPENAI_BASE_URL, not by OPENAI_API_KEY alone: many people export a key globally,
 * and `pnpm demo` with nothing else set must still run the scripted agent without network.
 */
export function demoConfigFromEnv(env: DemoEnv, argv: readonly string[] = []): DemoConfig {
  const port = present(env.PORT) ? parse('PORT', portSchema, env.PORT, 'a port number from 0 to 65535 (0 = any free port)') : undefined;
  const lang = present(env.ASKSEAM_DEMO_LANG) ? parse('ASKSEAM_DEMO_LANG', langSchema, env.ASKSEAM_DEMO_LANG, '"en" or "zh"') : 'en';
  const exitFlag = present(env.ASKSEAM_DEMO_EXIT_WHEN_DONE)
    ? parse('ASKSEAM_DEMO_EXIT_WHEN_DONE', flagSchema, env.ASKSEAM_DEMO_EXIT_WHEN_DONE, '1 or 0')
    : '0';
  const dataDir = present(env.ASKSEAM_DEMO_DATA_DIR) ? env.ASKSEAM_DEMO_DATA_DIR : undefined;
  const flags = flagsFrom(argv);
  const transport = transportFrom(env, flags.transport);
  const storeUrl = storeUrlFrom(flags.store, dataDir);
  return { port, lang, exitWhenDone: ['1', 'true', 'yes'].includes(exitFlag), agent: agentConfigFromEnv(env), dataDir, transport, ...(storeUrl === undefined ? {} : { storeUrl }) };
}

/** The command line's flags: `--transport sse|ws` and `--store postgres://…`, each as `--flag value` or `--flag=value`. */
function flagsFrom(argv: readonly string[]): { transport?: string; store?: string } {
  const flags: { transport?: string; store?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // `pnpm demo -- --transport sse` hands the script a lone `--` first.
    if (arg === '--') continue;
    const name = (['transport', 'store'] as const).find((flag) => arg === `--${flag}` || arg.startsWith(`--${flag}=`));
    if (name === undefined) {
      throw new DemoError('BAD_CONFIG', `Unknown argument "${arg}"; the demo takes only --transport sse|ws and --store postgres://… (the rest is set with environment variables, see the README).`);
    }
    if (arg.startsWith(`--${name}=`)) {
      flags[name] = arg.slice(`--${name}=`.length);
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) {
      throw new DemoError('BAD_CONFIG', name === 'transport' ? '--transport needs a value: --transport sse or --transport ws.' : '--store needs a value: --store postgres://user@host:5432/database.');
    }
    flags[name] = value;
    i++;
  }
  return flags;
}

function transportFrom(env: DemoEnv, flag: string | undefined): DemoTransport {
  if (flag !== undefined) return parse('--transport', transportSchema, flag, '"ws" or "sse"');
  return present(env.ASKSEAM_TRANSPORT) ? parse('ASKSEAM_TRANSPORT', transportSchema, env.ASKSEAM_TRANSPORT, '"ws" or "sse"') : 'ws';
}

/** `--store`: a PostgreSQL connection string (the demo's other stores are chosen by ASKSEAM_DEMO_DATA_DIR). */
function storeUrlFrom(flag: string | undefined, dataDir: string | undefined): string | undefined {
  if (flag === undefined) return undefined;
  if (!/^postgres(ql)?:\/\/\S+$/.test(flag.trim())) {
    throw new DemoError('BAD_CONFIG', `--store "${flag}" is not valid; expected a PostgreSQL connection string such as postgres://user@127.0.0.1:5432/database.`);
  }
  if (dataDir !== undefined) throw new DemoError('BAD_CONFIG', '--store and ASKSEAM_DEMO_DATA_DIR both choose where questions are kept; give one of them.');
  return flag.trim();
}

function agentConfigFromEnv(env: DemoEnv): DemoAgentConfig {
  if (!present(env.OPENAI_MODEL) && !present(env.OPENAI_BASE_URL)) return { kind: 'scripted' };
  if (!present(env.OPENAI_MODEL)) {
    throw new DemoError('BAD_CONFIG', 'OPENAI_BASE_URL is set but OPENAI_MODEL is not; set OPENAI_MODEL to the model name the endpoint serves.');
  }
  const baseUrl = present(env.OPENAI_BASE_URL)
    ? parse('OPENAI_BASE_URL', urlSchema, env.OPENAI_BASE_URL, 'an http(s) URL such as https://api.openai.com/v1')
    : DEFAULT_OPENAI_BASE_URL;
  const maxTurns = present(env.ASKSEAM_DEMO_MAX_TURNS)
    ? parse('ASKSEAM_DEMO_MAX_TURNS', turnsSchema, env.ASKSEAM_DEMO_MAX_TURNS, 'a whole number from 1 to 1000')
    : DEFAULT_MAX_TURNS;
  return {
    kind: 'openai',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: present(env.OPENAI_API_KEY) ? env.OPENAI_API_KEY : undefined,
    model: env.OPENAI_MODEL,
    maxTurns,
    task: present(env.ASKSEAM_DEMO_TASK) ? env.ASKSEAM_DEMO_TASK : undefined,
  };
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function parse<T>(name: string, schema: z.ZodType<T>, raw: string, expected: string): T {
  const result = schema.safeParse(raw.trim());
  if (!result.success) throw new DemoError('BAD_CONFIG', `${name}="${raw}" is not valid; expected ${expected}.`);
  return result.data;
}
