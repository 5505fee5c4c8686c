// Everything a user may import from @askseam/plan-mode, named one by one.
export { PlanMode } from './plan-mode.js';
export type { PlanModeChange, PlanModeListener, PlanModeOptions } from './plan-mode.js';
export { exitPlanModeTool } from './tool.js';
export type { ExitPlanModeTool } from './tool.js';
export { executeExitPlanMode } from './execute.js';
export type { ExitPlanModeContext, ExitPlanModeErrorCode, ExitPlanModeResult, PlanModeErrorCode } from './execute.js';
export { parseExitPlanModeArgs } from './arguments.js';
export type { ParsedExitPlanModeArgs } from './arguments.js';
export { exitPlanModeArgsSchema } from './schema.js';
export type { ExitPlanModeArgs } from './schema.js';
export { exitPlanModeToolDescription, exitPlanModeToolName } from './description.js';
export {
  exitPlanModeJsonSchema,
  toAnthropicExitPlanModeTool,
  toOpenAIExitPlanModeTool,
  toOpenAIResponsesExitPlanModeTool,
} from './tool-definitions.js';
export { approveLabel, isPlanApproved, keepPlanningLabel, planReviewQuestion, planReviewQuestionId } from './review.js';
export { planProblem } from './plan.js';
export { planModeErrorHints } from './hints.js';
