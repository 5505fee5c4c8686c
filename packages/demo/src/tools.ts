import { executeExitPlanMode, exitPlanModeToolName } from '@askseam/plan-mode';
import { askUserQuestionToolName, executeAskUserQuestion } from '@askseam/tool-ask-user';
import type { PrintLine } from './print.js';
import type { DemoRuntime } from './runtime.js';

/** One tool result exactly as the model receives it (`text`), plus the flags a tool loop reports. */
export interface DemoToolResult {
  isError: boolean;
  text: string;
  /** The error code, on an error result. */
  code?: string;
}

/** The tools the demo agent may call, run for real against the runtime, with every call and result printed. */
export interface DemoTools {
  call(name: string, args: unknown): Promise<DemoToolResult>;
  /** The same, for arguments a model sent as JSON text: unreadable JSON is an error result, not a throw. */
  callWithJson(name: string, argumentsJson: string): Promise<DemoToolResult>;
}

export interface DemoToolsOptions {
  runtime: DemoRuntime;
  print: PrintLine;
  /** Aborted when the demo shuts down: a question still waiting is withdrawn. */
  signal: AbortSignal;
}

export const demoToolNames = [askUserQuestionToolName, exitPlanModeToolName] as const;

/**
 * Both agents (scripted and model-driven) go through here, so the transcript has one format:
 * `[tool call] <name> <args JSON>` and `[tool result] <name> → <the exact text the model reads>`.
 */
export function createDemoTools({ runtime, print, signal }: DemoToolsOptions): DemoTools {
  const { userQuestions, agent, planMode } = runtime;
  const run = async (name: string, args: unknown): Promise<DemoToolResult> => {
    if (name === askUserQuestionToolName) return executeAskUserQuestion(args, { userQuestions, agent, signal });
    if (name === exitPlanModeToolName) return executeExitPlanMode(args, { userQuestions, agent, planMode, signal });
    return {
      isError: true,
      code: 'UNKNOWN_TOOL',
      text: `Error: There is no tool named "${name}".\nCall one of: ${demoToolNames.join(', ')}.`,
    };
  };
  const report = (name: string, result: DemoToolResult): DemoToolResult => {
    print(`[tool result] ${name} → ${result.text}`);
    return result;
  };
  return {
    async call(name, args) {
      print(`[tool call] ${name} ${JSON.stringify(args)}`);
      return report(name, await run(name, args));
    },
    async callWithJson(name, argumentsJson) {
      let args: unknown;
      try {
        args = JSON.parse(argumentsJson);
      } catch (error) {
        print(`[tool call] ${name} ${argumentsJson}`);
        const reason = error instanceof Error ? error.message : String(error);
        return report(name, {
          isError: true,
          code: 'INVALID_ARGUMENTS',
          text: `Error: The arguments of ${name} are not valid JSON (${reason}).\nSend the arguments as one JSON object and call ${name} again.`,
        });
      }
      return this.call(name, args);
    },
  };
}
