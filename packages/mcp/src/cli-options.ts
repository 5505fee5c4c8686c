import { parseArgs } from 'node:util';
import { McpBridgeError } from './errors.js';

export interface CliOptions {
  transport: 'stdio' | 'http';
  port: number | undefined;
  token: string | undefined;
  timeoutMs: number | undefined;
  open: boolean;
  help: boolean;
  version: boolean;
}

export const usage = `Usage: askseam-mcp [--http] [--port <n>] [--token <t>] [--timeout <seconds>] [--open]

An MCP server whose tools (ask_user_question, exit_plan_mode, approve_tool_call) a person answers
on askseam's page. Prints the page URL and its token on stderr; stdout carries only JSON-RPC.

  --http               serve Streamable HTTP at http://127.0.0.1:<port>/mcp (stateful sessions,
                       Authorization: Bearer <token>) instead of stdio
  --stdio              serve one session on stdin/stdout (the default)
  --port <n>           the port of the page (and of /mcp); default: any free port
  --token <t>          the token (at least 16 characters); default: $ASKSEAM_TOKEN, else random
  --timeout <seconds>  give up on a question after this long; default: wait for the person
  --open               open the page in the default browser
  --version            print the version and exit
  --help, -h           print this and exit

Values go after a space or an equals sign: --port 4318 and --port=4318 are the same.
`;

const flags = {
  http: { type: 'boolean' },
  stdio: { type: 'boolean' },
  open: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  port: { type: 'string' },
  token: { type: 'string' },
  timeout: { type: 'string' },
} as const;

/**
 * Read the command line with `node:util`'s `parseArgs` (so `--port=4318` and `--port 4318` both
 * work); a bad flag is an INVALID_OPTIONS error that says what to write instead.
 */
export function parseCliOptions(args: readonly string[], env: Readonly<Record<string, string | undefined>>): CliOptions {
  let values: { [K in keyof typeof flags]?: (typeof flags)[K]['type'] extends 'string' ? string : boolean };
  try {
    ({ values } = parseArgs({ args: [...args], options: flags, strict: true, allowPositionals: false }));
  } catch (error) {
    // parseArgs's own messages name the flag and say how to fix it ("Unknown option '--verbose'", "argument missing").
    throw new McpBridgeError('INVALID_OPTIONS', `${error instanceof Error ? error.message : String(error)}\n\n${usage}`, { cause: error });
  }
  if (values.http === true && values.stdio === true) throw new McpBridgeError('INVALID_OPTIONS', 'Choose one transport: --http or --stdio, not both.');
  const options: CliOptions = {
    transport: values.http === true ? 'http' : 'stdio',
    port: undefined,
    token: values.token ?? (env.ASKSEAM_TOKEN || undefined),
    timeoutMs: undefined,
    open: values.open === true,
    help: values.help === true,
    version: values.version === true,
  };
  if (values.port !== undefined) {
    const text = values.port;
    const port = Number(text);
    if (!/^\d+$/.test(text) || port > 65_535) throw new McpBridgeError('INVALID_OPTIONS', `--port takes a port number from 0 to 65535, not "${text}".`);
    options.port = port;
  }
  if (values.timeout !== undefined) {
    const text = values.timeout;
    const seconds = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || seconds <= 0) throw new McpBridgeError('INVALID_OPTIONS', `--timeout takes a positive number of seconds, not "${text}".`);
    options.timeoutMs = seconds * 1000;
  }
  if (options.token !== undefined && options.token.length < 16) {
    throw new McpBridgeError('INVALID_OPTIONS', 'The token (--token or ASKSEAM_TOKEN) must be at least 16 characters long; leave it out for a random one.');
  }
  return options;
}
