import type { AskToolErrorCode, AskToolResult } from '@askseam/tool-ask-user';
import { describe, expectTypeOf, it } from 'vitest';
import {
  executeExitPlanMode,
  exitPlanModeTool,
  PlanMode,
  type ExitPlanModeArgs,
  type ExitPlanModeContext,
  type ExitPlanModeErrorCode,
  type ExitPlanModeResult,
  type PlanModeErrorCode,
} from './index.js';

describe('public types', () => {
  it('types the arguments as { plan: string }', () => {
    expectTypeOf<ExitPlanModeArgs>().toEqualTypeOf<{ plan: string }>();
  });

  it('types the result as a tool result whose codes add plan mode’s own to the tool’s', () => {
    expectTypeOf<PlanModeErrorCode>().toEqualTypeOf<'NO_AGENT' | 'NOT_IN_PLAN_MODE' | 'INVALID_PLAN' | 'NO_SEAM'>();
    expectTypeOf<ExitPlanModeErrorCode>().toEqualTypeOf<AskToolErrorCode | PlanModeErrorCode>();
    expectTypeOf<ExitPlanModeResult>().toEqualTypeOf<AskToolResult<ExitPlanModeErrorCode>>();
    expectTypeOf<AskToolResult>().toMatchTypeOf<ExitPlanModeResult>();
  });

  it('types execute as unknown arguments plus a context that needs only the plan mode', () => {
    expectTypeOf(executeExitPlanMode).parameters.toEqualTypeOf<[unknown, ExitPlanModeContext]>();
    expectTypeOf(executeExitPlanMode).returns.resolves.toEqualTypeOf<ExitPlanModeResult>();
    expectTypeOf<{ planMode: PlanMode }>().toMatchTypeOf<ExitPlanModeContext>();
    expectTypeOf(exitPlanModeTool.name).toEqualTypeOf<'exit_plan_mode'>();
  });

  it('types PlanMode per agent id', () => {
    expectTypeOf<PlanMode['enter']>().toEqualTypeOf<(agentId: string) => boolean>();
    expectTypeOf<PlanMode['isActive']>().toEqualTypeOf<(agentId: string) => boolean>();
    expectTypeOf<PlanMode['onChange']>().returns.toEqualTypeOf<() => void>();
  });
});
