import { PlanMode, exitPlanModeTool } from '@askseam/plan-mode';
import { askUserQuestionTool } from '@askseam/tool-ask-user';
import type { AgentRef, UserQuestions } from '@askseam/user-questions';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { approveToolCallTool } from './approval-tool.js';
import { McpBridgeError } from './errors.js';
import { passThroughArguments } from './passthrough-schema.js';
import { defaultProgressIntervalMs, keepAliveWithProgress, type ProgressSink } from './progress.js';
import { runInToolCall } from './tool-call-context.js';
import { packageVersion } from './package-version.js';

/** The tools this package serves. */
export const askseamMcpToolNames = ['ask_user_question', 'exit_plan_mode', 'approve_tool_call'] as const;
export type AskseamMcpToolName = (typeof askseamMcpToolNames)[number];

export interface AskseamMcpToolsOptions {
  /** The seam every tool asks through; its provider (the WebSocket host, a terminal) reaches the person. */
  userQuestions: UserQuestions;
  /** Who is asking: the registry's own object. The WebSocket host routes by it (one MCP session, one agent). */
  agent?: AgentRef | undefined;
  /**
   * Whose plan mode `exit_plan_mode` ends. Default: the server's own, which puts the agent in plan
   * mode before each review, because an MCP client keeps plan mode on its side and the server
   * cannot see it.
   */
  planMode?: PlanMode | undefined;
  /** Give up on a question after this many milliseconds (`ASK_TIMEOUT`). Default: no timeout. */
  timeoutMs?: number | undefined;
  /** How often a waiting call sends `notifications/progress` when the client asked for it. Default 15 000 ms. */
  progressIntervalMs?: number | undefined;
  /** Which tools to serve. Default: all three. */
  tools?: readonly AskseamMcpToolName[] | undefined;
}

export interface AskseamMcpServerOptions extends AskseamMcpToolsOptions {
  /** The server's name in `initialize`. Default `askseam`. */
  name?: string | undefined;
  /** The server's version in `initialize`. Default: this package's version. */
  version?: string | undefined;
}

/**
 * An MCP server whose tools a person answers through askseam: `ask_user_question`,
 * `exit_plan_mode` and `approve_tool_call`. Connect it to any transport (`server.connect(…)`);
 * add your own tools to it with `registerTool` as usual.
 */
export function createAskseamMcpServer(options: AskseamMcpServerOptions): McpServer {
  const server = new McpServer({ name: options.name ?? 'askseam', version: options.version ?? packageVersion });
  registerAskseamTools(server, options);
  return server;
}

/**
 * Add askseam's tools to an `McpServer` you already run. The arguments reach each tool's own
 * check untouched (the SDK does not validate them first), so a model's mistake comes back as
 * askseam's corrective text, and every answer passes the seam's `matchesQuestions` check.
 */
export function registerAskseamTools(server: McpServer, options: AskseamMcpToolsOptions): void {
  const settings = checkedOptions(options);
  const { userQuestions, agent, timeoutMs } = settings;
  const ownPlanMode = settings.planMode === undefined;
  const planMode = settings.planMode ?? new PlanMode();

  const serve = (
    name: AskseamMcpToolName,
    tool: { description: string; jsonSchema: Record<string, unknown> },
    run: (args: unknown, signal: AbortSignal) => Promise<{ isError: boolean; text: string }>,
  ): void => {
    if (!settings.tools.has(name)) return;
    server.registerTool(name, { description: tool.description, inputSchema: passThroughArguments(tool.jsonSchema) }, async (args, extra) => {
      // The client's `notifications/cancelled` fires extra.signal: the question is withdrawn.
      const stop = keepAliveWithProgress(extra as ProgressSink, settings.progressIntervalMs, 'Waiting for a person to answer.');
      try {
        const result = await runInToolCall({ requestId: extra.requestId }, () => run(args, extra.signal));
        return toolResult(result);
      } finally {
        stop();
      }
    });
  };

  serve('ask_user_question', askUserQuestionTool, (args, signal) =>
    askUserQuestionTool.execute(args, { userQuestions, signal, ...(agent === undefined ? {} : { agent }), ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
  );
  serve('exit_plan_mode', exitPlanModeTool, (args, signal) => {
    if (ownPlanMode && agent !== undefined) planMode.enter(agent.id);
    return exitPlanModeTool.execute(args, { userQuestions, agent, planMode, signal, timeoutMs });
  });
  serve('approve_tool_call', approveToolCallTool, (args, signal) => approveToolCallTool.execute(args, { userQuestions, agent, signal, timeoutMs }));
}

function toolResult(result: { isError: boolean; text: string }): CallToolResult {
  return { content: [{ type: 'text', text: result.text }], isError: result.isError };
}

interface CheckedOptions extends Omit<AskseamMcpToolsOptions, 'tools'> {
  progressIntervalMs: number;
  tools: ReadonlySet<AskseamMcpToolName>;
}

function checkedOptions(options: AskseamMcpToolsOptions): CheckedOptions {
  if (typeof options?.userQuestions?.ask !== 'function') {
    throw new McpBridgeError('INVALID_OPTIONS', 'options.userQuestions must be a UserQuestions seam (new UserQuestions(…)) with a provider registered.');
  }
  const { timeoutMs, progressIntervalMs = defaultProgressIntervalMs, tools = askseamMcpToolNames } = options;
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0)) {
    throw new McpBridgeError('INVALID_OPTIONS', `options.timeoutMs must be a positive number of milliseconds, not ${String(timeoutMs)}; leave it out for no timeout.`);
  }
  if (!(typeof progressIntervalMs === 'number' && Number.isFinite(progressIntervalMs) && progressIntervalMs > 0)) {
    throw new McpBridgeError('INVALID_OPTIONS', `options.progressIntervalMs must be a positive, finite number of milliseconds, not ${String(progressIntervalMs)}.`);
  }
  const unknown = tools.filter((name) => !(askseamMcpToolNames as readonly string[]).includes(name));
  if (unknown.length > 0 || tools.length === 0) {
    throw new McpBridgeError('INVALID_OPTIONS', `options.tools must name some of ${askseamMcpToolNames.join(', ')}; got ${JSON.stringify(tools)}.`);
  }
  return { ...options, progressIntervalMs, tools: new Set(tools) };
}
