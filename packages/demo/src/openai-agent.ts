import { exitPlanModeTool, exitPlanModeToolName } from '@askseam/plan-mode';
import { toOpenAITool } from '@askseam/tool-ask-user';
import { requestChatCompletion, type ChatMessage } from './chat-completions.js';
import type { DemoLang, OpenAIAgentConfig } from './config.js';
import type { AgentOutcome } from './outcome.js';
import type { PrintLine } from './print.js';
import type { DemoRuntime } from './runtime.js';
import type { DemoTools } from './tools.js';

export interface OpenAIAgentOptions {
  config: OpenAIAgentConfig;
  tools: DemoTools;
  runtime: DemoRuntime;
  print: PrintLine;
  lang: DemoLang;
  /** Aborted when the demo shuts down: the request in flight is cancelled. */
  signal: AbortSignal;
  /** Per request; see `requestChatCompletion`. */
  requestTimeoutMs?: number;
}

const systemPrompt = [
  'You are a software planning assistant working with a user on a new project. You are in plan mode: you may ask and plan, but not implement.',
  'First gather what you need by calling ask_user_question. Put related questions into one call, give each question a short stable id,',
  'offer options where the user chooses between alternatives (put the one you recommend first and append " (Recommended)" to its label),',
  'and leave options out when you need free text such as a name.',
  'When you know enough, write a concise Markdown plan whose first line is a "# " title, followed by the decisions and numbered steps,',
  'and call exit_plan_mode with it. If the user keeps planning, revise the plan with their feedback and call exit_plan_mode again.',
  'Once the plan is approved, reply with a one-paragraph summary and stop. If the user dismisses your questions, reply briefly that you will wait for their message, and stop.',
].join(' ');

const defaultTask: Record<DemoLang, string> = {
  en: 'I want to start a new website project. Help me decide how to set it up and plan the first version.',
  zh: '我想开始一个新的网站项目。请帮我决定怎么搭建，并规划第一版。请用简体中文提问和写计划。',
};

/**
 * A chat-completions loop: the model decides what to ask; its tool calls run through the same
 * tools as the scripted agent, and each result goes back as a `role: 'tool'` message.
 */
export async function runOpenAIAgent({ config, tools, runtime, print, lang, signal, requestTimeoutMs }: OpenAIAgentOptions): Promise<AgentOutcome> {
  const task = config.task ?? defaultTask[lang];
  const definitions = [toOpenAITool(), toOpenAITool(exitPlanModeTool)];
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt },
    { role: 'user', content: task },
  ];
  print(`[user] ${task}`);

  let approvedPlan: string | undefined;
  let dismissed = false;
  for (let turn = 1; turn <= config.maxTurns; turn++) {
    print(`[model] turn ${turn}: waiting for ${config.model}…`);
    const reply = await requestChatCompletion({
      config,
      messages,
      tools: definitions,
      signal,
      ...(requestTimeoutMs === undefined ? {} : { timeoutMs: requestTimeoutMs }),
    });
    messages.push(reply.toolCalls.length > 0 ? { role: 'assistant', content: reply.content, tool_calls: reply.toolCalls } : { role: 'assistant', content: reply.content });
    if (reply.content !== null && reply.content.trim() !== '') print(`[assistant] ${reply.content}`);

    if (reply.toolCalls.length === 0) {
      if (approvedPlan !== undefined) return { status: 'approved', plan: approvedPlan };
      if (dismissed) return { status: 'dismissed' };
      return { status: 'finished', message: reply.content ?? '' };
    }
    // Every tool call gets its result message, in order: the API refuses a turn with an unanswered call.
    for (const call of reply.toolCalls) {
      const result = await tools.callWithJson(call.function.name, call.function.arguments);
      if (result.code === 'ASK_ABORTED' || signal.aborted) return { status: 'aborted' };
      messages.push({ role: 'tool', tool_call_id: call.id, content: result.text });
      if (result.code === 'ASK_CANCELLED') dismissed = true;
      if (call.function.name === exitPlanModeToolName && !result.isError && !runtime.planMode.isActive(runtime.agent.id)) {
        approvedPlan = planOf(call.function.arguments);
      }
    }
  }
  // A model that keeps calling tools after approval has still had its plan approved.
  return approvedPlan !== undefined ? { status: 'approved', plan: approvedPlan } : { status: 'turn-limit', turns: config.maxTurns };
}

function planOf(argumentsJson: string): string {
  // exit_plan_mode only succeeds on valid `{ plan }` arguments, so this cannot fail here.
  return (JSON.parse(argumentsJson) as { plan: string }).plan;
}
