import { parseRecommendedLabel } from '@askseam/client';
import { exitPlanModeToolName } from '@askseam/plan-mode';
import { askUserQuestionToolName } from '@askseam/tool-ask-user';
import { askUserQuestionAnswerSchema, type AskUserQuestionAnswerItem } from '@askseam/user-questions';
import type { DemoLang } from './config.js';
import type { AgentOutcome } from './outcome.js';
import type { PrintLine } from './print.js';
import type { DemoRuntime } from './runtime.js';
import { questionIds, scenarioFor, type ScenarioChoices } from './scenario.js';
import type { DemoToolResult, DemoTools } from './tools.js';

/** Plan reviews before the scripted agent gives up, so a user who never approves cannot keep it forever. */
export const MAX_PLAN_REVIEWS = 10;

export interface ScriptedAgentOptions {
  tools: DemoTools;
  runtime: DemoRuntime;
  print: PrintLine;
  lang: DemoLang;
}

/**
 * The agent `pnpm demo` runs without a model: it plays the model's part with a fixed script, but
 * every question goes through the real tools and seam, and it reads only the tool result text
 * (as a model would) to decide what to do next.
 */
export async function runScriptedAgent({ tools, runtime, print, lang }: ScriptedAgentOptions): Promise<AgentOutcome> {
  const scenario = scenarioFor(lang);
  const say = (line: string) => print(`[agent] ${line}`);
  say(scenario.intro);

  const first = await tools.call(askUserQuestionToolName, scenario.firstQuestions);
  if (first.isError) return stopOn(first);
  const firstAnswers = answersOf(first.text);
  const framework = singleChoice(firstAnswers.get(questionIds.framework));

  const second = await tools.call(askUserQuestionToolName, scenario.secondQuestions(framework));
  if (second.isError) return stopOn(second);
  const secondAnswers = answersOf(second.text);

  const choices: ScenarioChoices = {
    framework,
    features: multiChoice(firstAnswers.get(questionIds.features)),
    name: singleChoice(secondAnswers.get(questionIds.name)),
    hosting: singleChoice(secondAnswers.get(questionIds.hosting)),
  };
  let plan = scenario.plan(choices);

  for (let round = 1; round <= MAX_PLAN_REVIEWS; round++) {
    const review = await tools.call(exitPlanModeToolName, { plan });
    if (review.isError) return stopOn(review);
    // Plan mode is turned off only on consent, so its state is the approval, whatever the wording.
    if (!runtime.planMode.isActive(runtime.agent.id)) return { status: 'approved', plan };

    let feedback = feedbackFrom(review.text);
    if (feedback === undefined) {
      const asked = await tools.call(askUserQuestionToolName, scenario.changeQuestion);
      if (asked.isError) return stopOn(asked);
      feedback = singleChoice(answersOf(asked.text).get(questionIds.change));
    }
    // With no feedback at all, the same plan goes back for review: the user may simply have misclicked.
    if (feedback !== undefined) plan = `${plan}\n\n${scenario.revision(round, feedback)}`;
  }
  return { status: 'turn-limit', turns: MAX_PLAN_REVIEWS };
}

/** How a model would react to an error result: a dismissal means wait for the user; anything else ends the script. */
function stopOn(result: DemoToolResult): AgentOutcome {
  if (result.code === 'ASK_CANCELLED') return { status: 'dismissed' };
  if (result.code === 'ASK_ABORTED') return { status: 'aborted' };
  return { status: 'failed', reason: result.text };
}

/** The answers in an ask_user_question result, by question id. */
function answersOf(text: string): Map<string, AskUserQuestionAnswerItem> {
  const answer = askUserQuestionAnswerSchema.parse(JSON.parse(text));
  return new Map(answer.answers.map((item) => [item.id, item]));
}

/** Typed text replaces the choice; a skip is `undefined`. The "(Recommended)" marker is for display only. */
function singleChoice(item: AskUserQuestionAnswerItem | undefined): string | undefined {
  if (item === undefined) return undefined;
  if (item.custom !== undefined) return item.custom.trim();
  const selected = item.selected[0];
  return selected === undefined ? undefined : parseRecommendedLabel(selected).label;
}

function multiChoice(item: AskUserQuestionAnswerItem | undefined): string[] {
  if (item === undefined) return [];
  const chosen = item.selected.map((label) => parseRecommendedLabel(label).label);
  return item.custom === undefined ? chosen : [...chosen, item.custom.trim()];
}

/**
 * The user's words in an exit_plan_mode "keep planning" result. A model would simply read them;
 * the script finds them between the fixed sentences plan mode puts around them.
 */
function feedbackFrom(text: string): string | undefined {
  const match = /wrote:\n\n([\s\S]*)\n\nYou are still in plan mode/.exec(text);
  const feedback = match?.[1]?.trim();
  return feedback === undefined || feedback === '' ? undefined : feedback;
}
