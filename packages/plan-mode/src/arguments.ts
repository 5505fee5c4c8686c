import { exitPlanModeArgsSchema, type ExitPlanModeArgs } from './schema.js';

export type ParsedExitPlanModeArgs = { ok: true; value: ExitPlanModeArgs } | { ok: false; error: { code: 'INVALID_ARGUMENTS'; message: string } };

/** Read `{ plan }` from the model (an object, or its JSON text), or say how to fix the call. */
export function parseExitPlanModeArgs(args: unknown): ParsedExitPlanModeArgs {
  let value = args;
  if (typeof args === 'string') {
    try {
      value = JSON.parse(args);
    } catch {
      return invalid('the arguments are not valid JSON. Send an object like {"plan":"# Title\\n\\n1. First step"}.');
    }
  }
  const parsed = exitPlanModeArgsSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    return invalid(`unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => `"${key}"`).join(', ')}; the only field is "plan".`);
  }
  if (issue?.path[0] === 'plan') {
    const plan = (value as { plan?: unknown }).plan;
    return invalid(plan === undefined ? 'plan is missing; send the plan as Markdown text.' : `plan must be a string of Markdown, not ${kindOf(plan)}.`);
  }
  return invalid(`the arguments must be an object {"plan": "..."}, not ${kindOf(value)}.`);
}

function invalid(problem: string): ParsedExitPlanModeArgs {
  return { ok: false, error: { code: 'INVALID_ARGUMENTS', message: `Invalid arguments for exit_plan_mode: ${problem}` } };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
