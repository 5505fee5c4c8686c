import { McpBridgeError } from './errors.js';

export interface CliOptions {
  transport: 'stdio' | 'http';
  port: number | undefined;
  token: string | undefined;
  timeoutMs: number | undefined;
  open: boolean;
  help: boolean;
}

export const usage = `Usage: askseam-mcp [--http] [--port <n>] [--token <t>] [--timeout <seconds>] [--open]

An MCP server whose tools (ask_user_question, exit_plan_mode, approve_tool_call) a person answers
on askseam's page. Prints the page URL and its token on stderr; stdout carries only JSON-RPC.

  --http               serve Streamable HTTP at http://127.0.0.1:<port>/mcp (stateful sessions,
                       Authorization: Bearer <token>) instead of stdio
  --port <n>           the port of the page (and of /mcp); default: any free port
  --token <t>          the token (at least 16 characters); default: $ASKSEAM_TOKEN, else random
  --timeout <seconds>  give up on a question after this long; default: wait for the person
  --open               open the page in the default browser
  --help               print this and exit
`;

/** Read the command line; a bad flag is an INVALID_OPTIONS error that says what to write instead. */
export function parseCliOptions(args: readonly string[], env: Readonly<Record<string, string | undefined>>): CliOptions {
  const options: CliOptions = { transport: 'stdio', port: undefined, token: env.ASKSEAM_TOKEN || undefined, timeoutMs: undefined, open: false, help: false };
  for (let index = 0; index < args.length; index++) {
    const flag = args[index]!;
    const value = (): string => {
      const next = args[++index];
      if (next === undefined || next.startsWith('--')) throw new McpBridgeError('INVALID_OPTIONS', `${flag} needs a value.\n\n${usage}`);
      return next;
    };
    switch (flag) {
      case '--http':
        options.transport = 'http';
        break;
      case '--stdio':
        options.transport = 'stdio';
        break;
      case '--open':
        options.open = true;
        break;
      case '--help':
      case '-h':
        options.help = true;
        break;
      case '--port': {
        const text = value();
        const port = Number(text);
        if (!/^\d+$/.test(text) || port > 65_535) throw new McpBridgeError('INVALID_OPTIONS', `--port takes a port number from 0 to 65535, not "${text}".`);
        options.port = port;
        break;
      }
      case '--token':
        options.token = value();
        break;
      case '--timeout': {
        const text = value();
        const seconds = Number(text);
        if (!/^\d+(\.\d+)?$/.test(text) || seconds <= 0) throw new McpBridgeError('INVALID_OPTIONS', `--timeout takes a positive number of seconds, not "${text}".`);
        options.timeoutMs = seconds * 1000;
        break;
      }
      default:
        throw new McpBridgeError('INVALID_OPTIONS', `Unknown option "${flag}".\n\n${usage}`);
    }
  }
  if (options.token !== undefined && options.token.length < 16) {
    throw new McpBridgeError('INVALID_OPTIONS', 'The token (--token or ASKSEAM_TOKEN) must be at least 16 characters long; leave it out for a random one.');
  }
  return options;
}
